import ActivityModel
import DBus

/// The manager's methods, on requests the bus (`Bus/ManagerInterface`, `Bus/Requests+DBus`)
/// or a push message (`PushRequests`) decoded: one `transact` (the clock read once, the model decides, persisted before the reply, published
/// after it).
extension ActivityService {
    /// Start, decoded (by the bus or from a push message).
    func start(_ request: StartRequest) throws(DBusError) -> String {
        reloadKindsIfUnknown(request.kind)
        try push.check(request)
        // The push entry is saved between the model's call and the journal, and forgotten
        // when the journal cannot be written.
        let id = try transact { (now: Double) throws(ActivityError) in
            let (id, events) = try registry.start(kind: request.kind, attributes: request.attributes, state: request.state,
                                                  options: request.options, now: now)
            return (id.rawValue, events)
        } prepare: { (id: String) throws(DBusError) in
            try push.prepare(id, request)
        } undo: { id in
            push.forget(id)
        }
        push.subscribe(id)
        return id
    }

    /// Update, decoded (by the bus or from a push message).
    func update(id: String, _ request: UpdateRequest) throws(DBusError) {
        if request.cancel != nil || request.at != nil { return try schedule(id: id, request) }
        try transact(durable: false) { (now: Double) throws(ActivityError) in
            ((), try registry.update(id: id, state: request.state, options: request.options, now: now))
        }
    }

    /// End, decoded (by the bus or from a push message).
    func end(id: String, _ request: EndRequest) throws(DBusError) {
        try transact { (now: Double) throws(ActivityError) in
            ((), try registry.end(id: id, state: request.state, options: request.options, now: now))
        }
    }

    /// Toggle, decoded by the bus: ends the live activity of the kind, or starts one.
    func toggle(_ request: StartRequest) throws(DBusError) -> (String, Bool) {
        reloadKindsIfUnknown(request.kind)
        return try transact { (now: Double) throws(ActivityError) in
            let (id, started, events) = try registry.toggle(kind: request.kind, attributes: request.attributes, state: request.state,
                                                            options: request.options, endOptions: EndOptions(reason: request.reason),
                                                            now: now)
            return ((id.rawValue, started), events)
        }
    }

    func pause(id: String) throws(DBusError) {
        try transact { (now: Double) throws(ActivityError) in ((), try registry.pause(id: id, now: now)) }
    }

    func resume(id: String) throws(DBusError) {
        try transact { (now: Double) throws(ActivityError) in ((), try registry.resume(id: id, now: now)) }
    }

    func extend(id: String, seconds: Int64) throws(DBusError) {
        try transact { (now: Double) throws(ActivityError) in ((), try registry.extend(id: id, seconds: seconds, now: now)) }
    }

    func properties(id: String) throws(DBusError) -> DBusValue {
        _ = try mapped { () throws(ActivityError) in try ActivityID(id) }
        guard let current = readView().snapshot(id) else {
            throw DBusError(name: BusNames.errorPrefix + "NotFound", message: "no activity with id \(Quoted.text(id))")
        }
        return ActivityProperty.getReply(of: current)
    }

    func list() -> [(id: String, kind: String, status: String)] {
        registry.activities.map { ($0.id.rawValue, $0.kind, $0.status.rawValue) }
    }

    func setEnabled(_ on: Bool) throws(DBusError) {
        guard on != registry.enabled else { return }
        try transact { _ in
            registry.enabled = on
            return ((), [])
        }
        guard on else { publisher.cardsSwitchedOff(); return }
        publisher.cardsSwitchedOn(in: readView())
    }

    /// `PushToStartToken(kind)`: the kind files are read again first when `kind` is unknown.
    func pushToStartToken(kind: String) throws(DBusError) -> String {
        reloadKindsIfUnknown(kind)
        return try push.startToken(kind: kind)
    }
}
