import ActivityModel
import DBus

/// The `reason` option of End and Toggle, parsed once where the call is decoded, so the model
/// gets an `EndReason` and never a string to parse again.
extension OptionReader {
    func endReason(_ key: String) throws(DBusError) -> EndReason? {
        guard let text = try string(key) else { return nil }
        do {
            return try EndReason(parsing: text)
        } catch {
            throw .invalidArgs(error.message)
        }
    }
}
