/// Update and End.
extension ActivityRegistry {
    /// Merges `state` into a live activity (Update). A stale activity becomes active again
    /// unless the new `staleAt` has passed too; without a new `staleAt`, a passed one is
    /// cleared and a future one kept. Alert options add an `.alert` event.
    public mutating func update(
        id: String, state: [String: Value], options: UpdateOptions = UpdateOptions(), now: UnixTime
    ) throws(ActivityError) -> [ActivityEvent] {
        var activity = try existingLive(id, toBe: "updated")
        let kind = kind(of: activity)
        try Self.checkTime(options.staleAt, option: "stale-at")
        try Self.checkFinite(options.relevance, option: "relevance")
        let merged = try kind.acceptState(state, current: options.replaceState ? [:] : activity.state,
                                          isStart: options.replaceState, now: now)
        try checkPayload(attributes: activity.attributes, state: merged)

        let oldStatus = activity.status
        activity.state = merged
        activity.updatedAt = now
        if let relevance = options.relevance { activity.relevance = relevance }
        if let staleAt = options.staleAt {
            activity.staleAt = staleAt
        } else if let staleAt = activity.staleAt, staleAt <= now {
            activity.staleAt = nil
        }
        activity.status = Self.liveStatus(of: activity, at: now)
        storage[activity.id] = activity
        renderCache[activity.id] = nil

        var events: [ActivityEvent] = [.updated(activity.id)]
        if activity.status != oldStatus { events.append(.statusChanged(activity.id, activity.status)) }
        if options.alertTitle != nil || options.alertBody != nil || options.alertSound != nil {
            events.append(.alert(activity.id, Alert(title: options.alertTitle ?? kind.displayName,
                                                    body: options.alertBody ?? "", sound: options.alertSound)))
        }
        return events
    }

    /// Ends a live activity (End) with a final state merged in. Dismissal `default` keeps the
    /// final card for `limits.defaultDismissDelay`; `immediate` dismisses it now; `dismissAt`
    /// closes it then (at most `limits.maxDismissDelay` after the end; a past time means now).
    public mutating func end(
        id: String, state: [String: Value] = [:], options: EndOptions = EndOptions(), now: UnixTime
    ) throws(ActivityError) -> [ActivityEvent] {
        if let pending = try? existing(id), pending.status == .pending { return cancelPending(pending) }
        var activity = try existingLive(id, toBe: "ended")
        let reason = options.reason ?? .ended
        let dismissal = options.dismissal ?? "default"
        guard dismissal == "default" || dismissal == "immediate" else {
            throw .invalidArgument("option \"dismissal\": expected \"default\" or \"immediate\", got string \(Quoted.text(dismissal))")
        }
        try Self.checkTime(options.dismissAt, option: "dismiss-at")
        let merged = try kind(of: activity).acceptState(state, current: options.replaceState ? [:] : activity.state,
                                                        isStart: options.replaceState, now: now)
        try checkPayload(attributes: activity.attributes, state: merged)

        activity.state = merged
        let dismissAt: UnixTime
        if dismissal == "immediate" {
            dismissAt = now
        } else if let requested = options.dismissAt {
            dismissAt = min(max(requested, now), now + limits.maxDismissDelay)
        } else {
            dismissAt = now + limits.defaultDismissDelay
        }
        return finish(activity, reason: reason, at: now, dismissAt: dismissAt, now: now, alert: nil)
    }

    /// Marks an activity ended at `endedAt` (freezing its timer), stores or removes it, and
    /// returns `statusChanged(ended)`, `ended`, the alert if any, then the dismissal events if
    /// `dismissAt` is not after `now`.
    mutating func finish(
        _ original: Activity, reason: EndReason, at endedAt: UnixTime, dismissAt: UnixTime,
        now: UnixTime, alert: Alert?
    ) -> [ActivityEvent] {
        var activity = original
        activity.status = .ended
        activity.endedAt = endedAt
        activity.updatedAt = endedAt
        activity.reason = reason
        activity.dismissAt = dismissAt
        activity.scheduledUpdates = nil
        if activity.timer?.isRunning == true { activity.timer?.pausedAt = endedAt }
        renderCache[activity.id] = nil
        var history = HistoryEntry(ended: activity, reason: reason, at: endedAt)
        history.title = render(original, now: endedAt, timeZoneOffset: 0).title
        var events: [ActivityEvent] = [
            .statusChanged(activity.id, .ended),
            .ended(activity.id, reason: reason, history: history),
        ]
        if let alert { events.append(.alert(activity.id, alert)) }
        if dismissAt <= now {
            storage[activity.id] = nil
            events += [.statusChanged(activity.id, .dismissed), .dismissed(activity.id)]
        } else {
            storage[activity.id] = activity
            events += dismissEndedBeyondLimit()
        }
        return events
    }

    /// Dismisses the oldest ended activities (earliest end, then id) while more than
    /// `limits.maxEndedActivities` wait for their dismissal.
    mutating func dismissEndedBeyondLimit() -> [ActivityEvent] {
        let ended = storage.values.filter { !$0.status.holdsPlace }
        let excess = ended.count - max(0, limits.maxEndedActivities)
        guard excess > 0 else { return [] }
        let oldest = ended.sorted { ($0.endedAt ?? 0, $0.id) < ($1.endedAt ?? 0, $1.id) }.prefix(excess)
        var events: [ActivityEvent] = []
        for activity in oldest {
            storage[activity.id] = nil
            renderCache[activity.id] = nil
            events += [.statusChanged(activity.id, .dismissed), .dismissed(activity.id)]
        }
        return events
    }
}
