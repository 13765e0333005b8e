import ActivityModel
import DBus
import Persistence

/// The D-Bus errors of the contract that the core's parts refuse with: a model error as its
/// bus error, and the refusal of a change that could not be saved. They live on `DBusError` so
/// that the calls, persistence and push build them alike.
extension DBusError {
    /// The D-Bus error of the contract for a model error.
    init(_ error: ActivityError) {
        self.init(name: error.name == "InvalidArgs" ? "org.freedesktop.DBus.Error.InvalidArgs" : BusNames.errorPrefix + error.name,
                  message: error.message)
    }

    /// The refusal of a call whose record could not be written.
    static func storageFailed(_ error: AtomicFile.WriteError) -> DBusError {
        DBusError(name: BusNames.errorPrefix + "StorageFailed",
                  message: "the change could not be saved, so it was not made: \(error.description)")
    }
}
