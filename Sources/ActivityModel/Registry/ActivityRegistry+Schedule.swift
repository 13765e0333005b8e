/// Scheduled starts and the timeline of updates (issue 21, point 2): a `pending` activity
/// becomes active by itself at its start time, and updates given an `at` apply by themselves
/// then. Both are moments a user gave, so a wall-clock step leaves them where they are; a
/// moment that passed while the daemon was down or the machine slept is applied at the next tick.
extension ActivityRegistry {
    /// How many activities hold one of the `max-live-activities` places (live or pending).
    public var placesTaken: Int { storage.values.filter(\.status.holdsPlace).count }

    /// Refuses a scheduled moment outside `InputLimits` or more than `ScheduleLimits.longestAhead` after now.
    static func checkSchedule(_ value: Double?, option: String, now: UnixTime) throws(ActivityError) {
        try checkTime(value, option: option)
        if let value, value > now + ScheduleLimits.longestAhead {
            throw .invalidArgument("option \(Quoted.text(option)): expected a time at most 366 days ahead, got number \(value)")
        }
    }

    /// Holds `state` back until `at` (Update option `at`). A time already passed applies it now
    /// as a plain Update, except on a pending activity, which applies it when it starts. The
    /// content is checked now against the current state, so a bad one is refused at once.
    public mutating func scheduleUpdate(
        id: String, state: [String: Value], options: UpdateOptions = UpdateOptions(), at: UnixTime, now: UnixTime
    ) throws(ActivityError) -> [ActivityEvent] {
        var activity = try existing(id)
        guard activity.status.holdsPlace else {
            throw .notActive("activity \(Quoted.text(id)) is \(activity.status.rawValue); only live or pending activities can be updated")
        }
        try Self.checkSchedule(at, option: "at", now: now)
        if at <= now, activity.isLive { return try update(id: id, state: state, options: options, now: now) }
        try Self.checkTime(options.staleAt, option: "stale-at")
        try Self.checkFinite(options.relevance, option: "relevance")
        let kind = kind(of: activity)
        let merged = try kind.acceptState(state, current: options.replaceState ? [:] : activity.state,
                                          isStart: options.replaceState, now: now)
        try checkPayload(attributes: activity.attributes, state: merged)
        var timeline = activity.timeline
        guard timeline.count < ScheduleLimits.maxScheduledUpdates else {
            throw .limitExceeded("activity \(Quoted.text(id)) already holds \(timeline.count) scheduled updates; the limit is \(ScheduleLimits.maxScheduledUpdates); cancel one first")
        }
        let position = timeline.firstIndex { $0.at > at } ?? timeline.count
        timeline.insert(ScheduledUpdate(at: at, state: state, options: options), at: position)
        activity.scheduledUpdates = timeline
        storage[activity.id] = activity
        renderCache[activity.id] = nil
        return [.updated(activity.id)]
    }

    /// Cancels the scheduled updates of an activity due at `at` (whole seconds), or all of them
    /// when `at` is nil. `notFound` when none is due then.
    public mutating func cancelScheduledUpdates(id: String, at: UnixTime?) throws(ActivityError) -> [ActivityEvent] {
        var activity = try existing(id)
        let timeline = activity.timeline
        let kept = timeline.filter { update in at.map { update.at.rounded(.down) != $0.rounded(.down) } ?? false }
        guard kept.count < timeline.count else {
            let which = at.map { "scheduled update at \(Int64(saturating: $0))" } ?? "scheduled updates"
            throw .notFound("activity \(Quoted.text(id)) has no \(which)")
        }
        activity.scheduledUpdates = kept.isEmpty ? nil : kept
        storage[activity.id] = activity
        renderCache[activity.id] = nil
        return [.updated(activity.id)]
    }

    /// Makes a pending activity whose start time has come active, at `now`: timers the client
    /// gave no start for (and the lifetime cap) are anchored at `now`, so a start that passed
    /// while the daemon was down or the machine slept runs in full; the card pops up with an alert.
    mutating func activate(_ original: Activity, now: UnixTime) -> [ActivityEvent] {
        var activity = original
        let delay = max(0, now - activity.startedAt)
        if var timer = activity.timer, timer.startTakenFromClock == true, delay > 0 {
            timer.start += delay
            if let key = kind(of: activity).timer?.startAttribute, activity.attributes[key] != nil {
                activity.attributes[key] = .double(timer.start)
            }
            activity.timer = timer
        }
        activity.expiresAt = activity.expiresAt.map { $0 + delay }
        activity.startedAt = now
        activity.updatedAt = now
        activity.phaseIndex = activity.phaseIndex(at: now)
        activity.status = Self.liveStatus(of: activity, at: now)
        storage[activity.id] = activity
        renderCache[activity.id] = nil
        let title = render(activity, now: now, timeZoneOffset: 0).title
        return [.statusChanged(activity.id, activity.status),
                .alert(activity.id, Alert(title: kind(of: activity).displayName, body: title.isEmpty ? "Started" : "Started: \(BidiIsolation.isolated(title))"))]
    }

    /// Applies, in order, the scheduled updates of a live activity due at `now`, each as the
    /// Update it stands for; one that no longer fits (its kind changed, the state grew past the
    /// payload limit) is dropped and kept for the daemon to log (`takeDroppedScheduledUpdates`).
    mutating func applyDueUpdates(of id: ActivityID, now: UnixTime) -> [ActivityEvent] {
        var events: [ActivityEvent] = []
        while let activity = storage[id], activity.isLive, let next = activity.timeline.first, next.at <= now {
            var rest = activity
            rest.scheduledUpdates = activity.timeline.count > 1 ? Array(activity.timeline.dropFirst()) : nil
            storage[id] = rest
            do {
                events += try update(id: id.rawValue, state: next.state, options: next.options, now: now)
            } catch {
                droppedScheduledUpdates.append(DroppedScheduledUpdate(id: id, at: next.at, error: error))
                events.append(.updated(id))
            }
        }
        return events
    }

    /// The scheduled updates dropped since the last call, oldest first; the list is emptied.
    public mutating func takeDroppedScheduledUpdates() -> [DroppedScheduledUpdate] {
        defer { droppedScheduledUpdates = [] }
        return droppedScheduledUpdates
    }

    /// A pending activity is cancelled by End: it never ran, so it leaves at once, without a
    /// history line or an `ActivityEnded` (it has had no card).
    mutating func cancelPending(_ activity: Activity) -> [ActivityEvent] {
        storage[activity.id] = nil
        renderCache[activity.id] = nil
        return [.statusChanged(activity.id, .ended), .statusChanged(activity.id, .dismissed), .dismissed(activity.id)]
    }
}
