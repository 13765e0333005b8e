/// Start and Toggle.
extension ActivityRegistry {
    /// Starts an activity of `kind` (Start). Refused when disabled, for an unknown kind, a bad
    /// id or duplicate, bad options, attributes or state, too large a payload, or too many live.
    public mutating func start(
        kind kindName: String, attributes: [String: Value], state: [String: Value],
        options: StartOptions = StartOptions(), now: UnixTime
    ) throws(ActivityError) -> (id: ActivityID, events: [ActivityEvent]) {
        guard enabled else {
            throw .disabled("live activities are disabled; set Enabled to true to start one")
        }
        guard let kind = catalog.kind(named: kindName) else {
            throw .unknownKind("unknown kind \(Quoted.text(kindName)); known kinds: \(catalog.names.joined(separator: ", "))")
        }
        var chosenID: ActivityID?
        if let raw = options.id {
            let id = try ActivityID(raw)
            if let existing = storage[id] {
                throw .alreadyExists("an activity with id \(Quoted.text(raw)) already exists (status \(existing.status.rawValue)); choose another id")
            }
            chosenID = id
        }
        let appID = try options.appID.map { raw throws(ActivityError) in try DesktopEntryID.validated(raw).get() }
        try Self.checkTime(options.staleAt, option: "stale-at")
        try Self.checkFinite(options.relevance, option: "relevance")
        try Self.checkSchedule(options.startAt, option: "start-at", now: now)
        // A future start-at: everything is anchored then, and the activity waits as `pending`.
        let startAt = max(now, options.startAt ?? now)
        let acceptedAttributes = try kind.acceptAttributes(attributes, now: startAt)
        let acceptedState = try kind.acceptState(state, current: [:], isStart: true, now: startAt)
        try checkPayload(attributes: acceptedAttributes, state: acceptedState)
        let timer = try kind.makeTimer(attributes: acceptedAttributes, given: attributes, now: startAt)
        guard placesTaken < limits.maxLiveActivities else {
            throw .tooManyActivities("\(placesTaken) activities are live or pending; the limit is \(limits.maxLiveActivities); end one first")
        }
        var generator = idGenerator
        let id = chosenID ?? {
            var candidate = generator.next()
            while storage[candidate] != nil { candidate = generator.next() }
            return candidate
        }()
        var activity = Activity(
            id: id, kind: kind.name, attributes: acceptedAttributes, state: acceptedState,
            status: .active, startedAt: startAt, updatedAt: now, staleAt: options.staleAt,
            endedAt: nil, reason: nil, relevance: options.relevance ?? 0, appName: options.appName,
            dismissAt: nil, timer: timer,
            phases: timer == nil ? [] : try kind.makePhases(attributes: acceptedAttributes),
            phaseIndex: 0, expiresAt: kind.maxLifetime.map { startAt + $0 }, appID: appID)
        activity.phaseIndex = activity.phaseIndex(at: startAt)
        activity.status = startAt > now ? .pending : Self.liveStatus(of: activity, at: now)
        idGenerator = generator
        storage[id] = activity
        var events: [ActivityEvent] = [.started(id, kind: kind.name)]
        if activity.status != .active { events.append(.statusChanged(id, activity.status)) }
        return (id, events)
    }

    /// Ends the live activities of `kind` if there are any (reason from `endOptions`, default
    /// `ended`), else starts one; atomic. Returns the started id, or the most relevant ended one.
    public mutating func toggle(
        kind kindName: String, attributes: [String: Value], state: [String: Value],
        options: StartOptions = StartOptions(), endOptions: EndOptions = EndOptions(), now: UnixTime
    ) throws(ActivityError) -> (id: ActivityID, started: Bool, events: [ActivityEvent]) {
        let running = live.filter { $0.kind == kindName }
        guard let first = running.first else {
            let (id, events) = try start(kind: kindName, attributes: attributes, state: state,
                                         options: options, now: now)
            return (id, true, events)
        }
        var copy = self
        var events: [ActivityEvent] = []
        for activity in running {
            events += try copy.end(id: activity.id.rawValue, state: [:], options: endOptions, now: now)
        }
        self = copy
        return (first.id, false, events)
    }
}
