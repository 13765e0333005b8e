import DBus

/// Update's options `cancel-at` (unix seconds) and `cancel-all` (true): the call cancels
/// scheduled updates and does nothing else, so it takes no state and no other option.
struct ScheduledUpdateCancel {
    /// Nil: every scheduled update.
    let at: Double?

    /// Nil when the call is an ordinary Update.
    init?(reader: OptionReader, state: [String: DBusValue], options: [String: DBusValue]) throws(DBusError) {
        let at = try reader.unixTime("cancel-at")
        let all = try reader.flag("cancel-all") ?? false
        guard at != nil || all else { return nil }
        guard !(at != nil && all) else {
            throw .invalidArgs("Update options \"cancel-at\" and \"cancel-all\" exclude each other; give one")
        }
        guard state.isEmpty, options.count == 1 else {
            throw .invalidArgs("Update with \"cancel-at\" or \"cancel-all\" only cancels: give no state and no other option")
        }
        self.at = all ? nil : at
    }
}
