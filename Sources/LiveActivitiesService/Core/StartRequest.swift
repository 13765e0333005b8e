import ActivityModel

/// Start's and Toggle's arguments, converted and checked before the model sees them (from the
/// bus: `Bus/Requests+DBus.swift`; from push: `PushRequests`).
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

    /// A request already in the model's values (a push message's, or the bus's once decoded).
    init(kind: String, attributes: [String: Value], state: [String: Value], options: StartOptions,
         pushType: String?, pushChannel: String?, reason: EndReason? = nil) {
        self.kind = kind
        self.attributes = attributes
        self.state = state
        self.options = options
        self.reason = reason
        self.pushType = pushType
        self.pushChannel = pushChannel
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
}
