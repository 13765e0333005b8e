// What every file of the service (and its users) sees without importing it: the contract's
// names and the file-reading half of the model.
@_exported import ActivityFiles
@_exported import LiveActivitiesContract
// The log and the clock protocol every part of the daemon shares (Sources/ServiceSupport).
@_exported import ServiceSupport
