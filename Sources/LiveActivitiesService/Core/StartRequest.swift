import ActivityModel
import DBus

/// Start's and Toggle's arguments, converted and checked before the model sees them.
struct StartRequest {
    let kind: String
    let attributes: [String: Value]
    let state: [String: Value]
    private(set) var options: StartOptions
    /// Toggle's `reason` for the activity it ends.
    let reason: EndReason?
    /// Start options `push-type` (`token`) and `push-channel` (`PushCoordinator`).
    let pushType: String?
    let pushChannel: String?

    /// The same request with the application the system says the caller is (a Flatpak's id):
    /// it wins over the `app-id` option, so a sandboxed app cannot file its cards under another.
    func calledBy(app: String?) -> StartRequest {
        guard let app else { return self }
        var request = self
        request.options.appID = app
        return request
    }

    /// A request already in the model's values (a push message's: `PushRequests`).
    init(kind: String, attributes: [String: Value], state: [String: Value], options: StartOptions,
         pushType: String?, pushChannel: String?) {
        self.kind = kind
        self.attributes = attributes
        self.state = state
        self.options = options
        reason = nil
        self.pushType = pushType
        self.pushChannel = pushChannel
    }

    init(kind: String, attributes: [String: DBusValue], state: [String: DBusValue], options: [String: DBusValue],
         method: String) throws(DBusError) {
        self.kind = kind
        self.attributes = try ValueConversion.modelValues(attributes, what: "attributes")
        self.state = try ValueConversion.modelValues(state, what: "state")
        var known = ["id", "stale-at", "relevance", "app-name", "app-id"]
        if method == "Toggle" { known.append("reason") } else { known += ["push-type", "push-channel", "start-at"] }
        let reader = try OptionReader(method: method, options: options, known: known)
        self.options = StartOptions(id: try reader.string("id"), staleAt: try reader.unixTime("stale-at"),
                                    relevance: try reader.number("relevance"), appName: try reader.string("app-name"),
                                    startAt: try reader.unixTime("start-at"), appID: try reader.string("app-id"))
        reason = try reader.endReason("reason")
        (pushType, pushChannel) = try reader.pushOptions()
    }
}

/// Update's arguments, converted and checked.
struct UpdateRequest {
    let state: [String: Value]
    let options: UpdateOptions
    /// Option `at`: apply the update then instead of now.
    let at: Double?
    /// Options `cancel-at` / `cancel-all`: cancel scheduled updates instead of updating.
    let cancel: ScheduledUpdateCancel?

    /// An update to apply now, already in the model's values (a push message's: `PushRequests`).
    init(state: [String: Value], options: UpdateOptions) {
        self.state = state
        self.options = options
        at = nil
        cancel = nil
    }

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

/// End's arguments, converted and checked; the reason is parsed here, once.
struct EndRequest {
    let state: [String: Value]
    let options: EndOptions

    /// An End already in the model's values (a push message's: `PushRequests`).
    init(state: [String: Value], options: EndOptions) {
        self.state = state
        self.options = options
    }

    init(state: [String: DBusValue], options: [String: DBusValue]) throws(DBusError) {
        self.state = try ValueConversion.modelValues(state, what: "state")
        let reader = try OptionReader(method: "End", options: options,
                                      known: ["reason", "dismissal", "dismiss-at", "replace-state"])
        self.options = EndOptions(reason: try reader.endReason("reason"), dismissal: try reader.string("dismissal"),
                                  dismissAt: try reader.unixTime("dismiss-at"),
                                  replaceState: try reader.flag("replace-state") ?? false)
    }
}
