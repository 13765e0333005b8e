/// Everything time-driven: phases, timers running out, stale-at, lifetime caps, dismissals.
extension ActivityRegistry {
    /// Applies every change due at `now` and reports it. Also reports `rendered` for a live
    /// activity whose texts (in `style`) or whole percent differ from the previous tick while nothing else
    /// happened to it. After a restore, ends that passed while the daemon was down happen
    /// here, at the moment they were due (a focus session completes at its end time).
    public mutating func tick(now: UnixTime, timeZoneOffset: Double, style: RenderStyle = .standard) -> [ActivityEvent] {
        if renderCacheStyle != style {
            renderCache = [:]
            renderCacheStyle = style
        }
        var events: [ActivityEvent] = []
        for activity in activities {
            let before = events.count
            if activity.status == .pending, activity.startedAt <= now {
                events += activate(activity, now: now)
            }
            if let due = storage[activity.id]?.timeline.first, due.at <= now {
                events += applyDueUpdates(of: activity.id, now: now)
            }
            if let current = storage[activity.id], current.isLive {
                events += advance(current, now: now, timeZoneOffset: timeZoneOffset)
            } else if let dismissAt = activity.dismissAt, dismissAt <= now {
                storage[activity.id] = nil
                events += [.statusChanged(activity.id, .dismissed), .dismissed(activity.id)]
            }
            guard let current = storage[activity.id] else {
                renderCache[activity.id] = nil
                continue
            }
            let output = ActivityRenderer(activity: current, kind: kind(of: current), now: now,
                                          timeZoneOffset: timeZoneOffset, style: style).render()
            if renderCache[activity.id]?.rendered.showsSameAs(output.rendered) != true, events.count == before, current.isLive {
                events.append(.rendered(activity.id))
            }
            renderCache[activity.id] = CachedRender(rendered: output.rendered, nextChange: output.nextChange)
        }
        renderCacheMoment = RenderMoment(now: now, timeZoneOffset: timeZoneOffset)
        // A registry restored with more ended activities than the limit (an older version, a
        // lowered limit) is brought under it.
        return events + dismissEndedBeyondLimit()
    }

    /// Moves one live activity to `now`: phase change, end by timer or lifetime, status.
    private mutating func advance(_ original: Activity, now: UnixTime, timeZoneOffset: Double) -> [ActivityEvent] {
        var activity = original
        let kind = kind(of: activity)
        var events: [ActivityEvent] = []

        let phase = activity.phaseIndex(at: now)
        if phase > activity.phaseIndex {
            activity.phaseIndex = phase
            if let alert = kind.phaseSpec(named: activity.phases[phase].name)?.alert {
                let renderer = ActivityRenderer(activity: activity, kind: kind, now: now,
                                                timeZoneOffset: timeZoneOffset, style: .standard)
                events.append(.alert(activity.id, renderer.alert(alert)))
            }
            storage[activity.id] = activity
        }

        var ending: (at: UnixTime, reason: EndReason, byTimer: Bool)?
        if let timer = activity.timer, case .end(let reason) = timer.expiry,
           let endTime = timer.endTime, endTime <= now {
            ending = (endTime, reason, true)
        }
        if let expiresAt = activity.expiresAt, expiresAt <= now, ending.map({ expiresAt < $0.at }) ?? true {
            ending = (expiresAt, .ended, false)
        }
        if let ending {
            var alert: Alert?
            if ending.byTimer, let template = kind.timer?.expiryAlert {
                let renderer = ActivityRenderer(activity: activity, kind: kind, now: ending.at,
                                                timeZoneOffset: timeZoneOffset, style: .standard)
                alert = renderer.alert(template)
            }
            return events + finish(activity, reason: ending.reason, at: ending.at,
                                   dismissAt: ending.at + limits.defaultDismissDelay, now: now, alert: alert)
        }

        let status = Self.liveStatus(of: activity, at: now)
        if status != activity.status {
            activity.status = status
            storage[activity.id] = activity
            events.append(.statusChanged(activity.id, status))
        }
        return events
    }
}
