/// Pause, Resume, Extend and card buttons.
extension ActivityRegistry {
    /// Stops a live activity's timer (status `paused`). Refused without a timer or when paused.
    public mutating func pause(id: String, now: UnixTime) throws(ActivityError) -> [ActivityEvent] {
        var activity = try existingLive(id, toBe: "paused")
        guard var timer = activity.timer else { throw Self.noTimer(activity, "pause") }
        guard timer.isRunning else { throw .invalidArgument("activity \(Quoted.text(id)) is already paused") }
        timer.pausedAt = now
        return store(activity: &activity, timer: timer, now: now)
    }

    /// Restarts a paused timer where it stopped (its end moves by the time spent paused).
    public mutating func resume(id: String, now: UnixTime) throws(ActivityError) -> [ActivityEvent] {
        var activity = try existingLive(id, toBe: "resumed")
        guard var timer = activity.timer else { throw Self.noTimer(activity, "resume") }
        guard let pausedAt = timer.pausedAt else { throw .invalidArgument("activity \(Quoted.text(id)) is not paused") }
        timer.pausedTotal += max(0, now - pausedAt)
        timer.pausedAt = nil
        return store(activity: &activity, timer: timer, now: now)
    }

    /// Adds `seconds` (1 to 7 days) to a live timer's length, and to the current and later phases.
    public mutating func extend(id: String, seconds: Int64, now: UnixTime) throws(ActivityError) -> [ActivityEvent] {
        var activity = try existingLive(id, toBe: "extended")
        guard var timer = activity.timer, let duration = timer.duration else { throw Self.noTimer(activity, "extend") }
        guard (1...604_800).contains(seconds) else {
            throw .invalidArgument("seconds: expected a number of seconds from 1 to 604800, got integer \(seconds)")
        }
        let added = Double(seconds)
        guard InputLimits.isDuration(duration + added) else {
            throw .invalidArgument("seconds: the timer would last more than 100 years (3155760000 seconds); it cannot be extended further")
        }
        timer.duration = duration + added
        timer.extended += added
        let current = activity.phaseIndex(at: now)
        activity.phases = activity.phases.enumerated().map { index, phase in
            guard index >= current, let end = phase.end else { return phase }
            return PhaseState(name: phase.name, label: phase.label, end: end + added)
        }
        return store(activity: &activity, timer: timer, now: now)
    }

    /// Performs a card button: built-in actions call the matching method (`complete` and
    /// `cancel` end with that reason); every press, custom keys included, is reported first
    /// as `actionInvoked`.
    public mutating func invoke(action key: String, id: String, now: UnixTime) throws(ActivityError) -> [ActivityEvent] {
        let activity = try existingLive(id, toBe: "acted on")
        var events: [ActivityEvent] = [.actionInvoked(activity.id, action: key)]
        switch CardAction(key: key) {
        case .end: events += try end(id: id, options: EndOptions(reason: .ended), now: now)
        case .complete: events += try end(id: id, options: EndOptions(reason: .completed), now: now)
        case .cancel: events += try end(id: id, options: EndOptions(reason: .cancelled), now: now)
        case .pause: events += try pause(id: id, now: now)
        case .resume: events += try resume(id: id, now: now)
        case .extend(let seconds): events += try extend(id: id, seconds: seconds, now: now)
        case .custom: break
        }
        return events
    }

    private static func noTimer(_ activity: Activity, _ verb: String) -> ActivityError {
        .invalidArgument("activity \"\(activity.id)\" (kind \"\(activity.kind)\") has no timer to \(verb)")
    }

    /// Saves a timer change and reports `updated` plus the status change it caused.
    mutating func store(activity: inout Activity, timer: TimerState, now: UnixTime) -> [ActivityEvent] {
        let oldStatus = activity.status
        activity.timer = timer
        activity.updatedAt = now
        activity.status = Self.liveStatus(of: activity, at: now)
        storage[activity.id] = activity
        renderCache[activity.id] = nil
        var events: [ActivityEvent] = [.updated(activity.id)]
        if activity.status != oldStatus { events.append(.statusChanged(activity.id, activity.status)) }
        return events
    }
}
