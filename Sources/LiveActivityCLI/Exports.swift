// The contract's names and the file-reading half of the model, for every file of the CLI.
@_exported import ActivityFiles
@_exported import LiveActivitiesContract
