import ActivityModel
import DBus

// The bus's side of the calls' requests: D-Bus values become the model's, options are read
// and checked once, and a bad one is the contract's InvalidArgs. Core sees only the requests.

extension StartRequest {
    init(kind: String, attributes: [String: DBusValue], state: [String: DBusValue], options: [String: DBusValue],
         method: String) throws(DBusError) {
        let modelAttributes = try ValueConversion.modelValues(attributes, what: "attributes")
        let modelState = try ValueConversion.modelValues(state, what: "state")
        var known = ["id", "stale-at", "relevance", "app-name", "app-id"]
        if method == "Toggle" { known.append("reason") } else { known += ["push-type", "push-channel", "start-at"] }
        let reader = try OptionReader(method: method, options: options, known: known)
        let startOptions = StartOptions(id: try reader.string("id"), staleAt: try reader.unixTime("stale-at"),
                                        relevance: try reader.number("relevance"), appName: try reader.string("app-name"),
                                        startAt: try reader.unixTime("start-at"), appID: try reader.string("app-id"))
        let reason = try reader.endReason("reason")
        let (pushType, pushChannel) = try reader.pushOptions()
        self.init(kind: kind, attributes: modelAttributes, state: modelState, options: startOptions,
                  pushType: pushType, pushChannel: pushChannel, reason: reason)
    }
}

extension UpdateRequest {
    init(state: [String: DBusValue], options: [String: DBusValue]) throws(DBusError) {
        self.state = try ValueConversion.modelValues(state, what: "state")
        let reader = try OptionReader(method: "Update", options: options,
                                      known: ["stale-at", "relevance", "alert-title", "alert-body", "alert-sound", "replace-state",
                                              "at", "cancel-at", "cancel-all"])
        at = try reader.unixTime("at")
        cancel = try ScheduledUpdateCancel(reader: reader, state: state, options: options)
        self.options = UpdateOptions(staleAt: try reader.unixTime("stale-at"), relevance: try reader.number("relevance"),
                                     alertTitle: try reader.string("alert-title"), alertBody: try reader.string("alert-body"),
                                     alertSound: try reader.string("alert-sound"),
                                     replaceState: try reader.flag("replace-state") ?? false)
    }
}

extension EndRequest {
    init(state: [String: DBusValue], options: [String: DBusValue]) throws(DBusError) {
        self.state = try ValueConversion.modelValues(state, what: "state")
        let reader = try OptionReader(method: "End", options: options,
                                      known: ["reason", "dismissal", "dismiss-at", "replace-state"])
        self.options = EndOptions(reason: try reader.endReason("reason"), dismissal: try reader.string("dismissal"),
                                  dismissAt: try reader.unixTime("dismiss-at"),
                                  replaceState: try reader.flag("replace-state") ?? false)
    }
}

extension ScheduledUpdateCancel {
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
