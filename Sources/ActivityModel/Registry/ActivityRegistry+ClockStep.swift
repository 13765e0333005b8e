/// Wall-clock steps (issue 18, point 9): moments the daemon read from its own clock move with
/// the clock, moments a user gave stay. A focus session started without a start time, just
/// before NTP stepped a fast clock back ten minutes, would otherwise begin ten minutes in the
/// future and show its full time, frozen, for ten minutes.
extension ActivityRegistry {
    /// Moves by `step` seconds the timer start of every live activity whose start was the
    /// daemon's "now" (and the attribute that holds it), and every pause moment (always the
    /// daemon's). Returns `updated` for each activity changed.
    public mutating func shiftClockAnchors(by step: Double, now: UnixTime) -> [ActivityEvent] {
        guard step.isFinite, step != 0 else { return [] }
        var events: [ActivityEvent] = []
        for var activity in live {
            guard var timer = activity.timer else { continue }
            var changed = false
            if timer.startTakenFromClock == true, InputLimits.isTime(timer.start + step) {
                timer.start += step
                if let key = kind(of: activity).timer?.startAttribute, activity.attributes[key] != nil {
                    activity.attributes[key] = .double(timer.start)
                }
                changed = true
            }
            if let pausedAt = timer.pausedAt, InputLimits.isTime(pausedAt + step) {
                timer.pausedAt = pausedAt + step
                changed = true
            }
            guard changed else { continue }
            let oldStatus = activity.status
            activity.timer = timer
            activity.status = Self.liveStatus(of: activity, at: now)
            storage[activity.id] = activity
            renderCache[activity.id] = nil
            events.append(.updated(activity.id))
            if activity.status != oldStatus { events.append(.statusChanged(activity.id, activity.status)) }
        }
        return events
    }
}
