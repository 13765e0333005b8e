/// Rendering, the compact text and the one deadline for the daemon's timer.
extension ActivityRegistry {
    /// The texts of one activity at `now`; `notFound` for an unknown id.
    public func render(id: String, now: UnixTime, timeZoneOffset: Double,
                       style: RenderStyle = .standard) throws(ActivityError) -> RenderedActivity {
        stored(try existing(id), now: now, timeZoneOffset: timeZoneOffset, style: style).rendered
    }

    /// The texts of `activity` at `now`.
    public func render(_ activity: Activity, now: UnixTime, timeZoneOffset: Double,
                       style: RenderStyle = .standard) -> RenderedActivity {
        ActivityRenderer(activity: activity, kind: kind(of: activity), now: now,
                         timeZoneOffset: timeZoneOffset, style: style).render().rendered
    }

    /// `CompactText`: `<leading> <trailing>` of the most relevant live activity, then
    /// ` · <minimal>` of each other live one; empty when nothing is live. E.g. `⏱ 12:34 · 🍽`.
    public func compactText(now: UnixTime, timeZoneOffset: Double, style: RenderStyle = .standard) -> String {
        Self.compactText(of: live.map { stored($0, now: now, timeZoneOffset: timeZoneOffset, style: style).rendered })
    }

    /// `CompactText` of live activities already rendered, most relevant first.
    public static func compactText(of rendered: [RenderedActivity]) -> String {
        guard let first = rendered.first else { return "" }
        let parts = [first.compactPair] + rendered.dropFirst().map(\.minimal)
        return parts.filter { !$0.isEmpty }.map(BidiIsolation.isolated).joined(separator: " · ")
    }

    /// The texts of a stored activity at `now` and when they next change (the last tick's
    /// render when `now` is that tick's moment), for a caller that reuses one render for
    /// several reads (`nextDeadline(after:nextChange:)`).
    public func view(of activity: Activity, now: UnixTime, timeZoneOffset: Double,
                     style: RenderStyle = .standard) -> ActivityView {
        let output = stored(activity, now: now, timeZoneOffset: timeZoneOffset, style: style)
        return ActivityView(rendered: output.rendered, nextChange: output.nextChange)
    }

    /// The earliest moment after `now` at which any rendered text (in `style`), whole progress
    /// percent or status could change, or something is due (phase, timer end, stale-at,
    /// lifetime cap, dismissal); nil when nothing is pending. Paused timers add nothing.
    /// If several consumers use different styles, pass the one with seconds.
    public func nextDeadline(after now: UnixTime, timeZoneOffset: Double, style: RenderStyle = .standard) -> UnixTime? {
        nextDeadline(after: now) { stored($0, now: now, timeZoneOffset: timeZoneOffset, style: style).nextChange }
    }

    /// `nextDeadline(after:timeZoneOffset:style:)` with each live activity's next text change
    /// given by the caller (from renders it already has).
    public func nextDeadline(after now: UnixTime, nextChange: (Activity) -> UnixTime?) -> UnixTime? {
        var earliest: UnixTime?
        func consider(_ moment: UnixTime?) {
            earliest = TimedText.earliest(earliest, moment)
        }
        for activity in storage.values {
            if activity.status == .pending {
                consider(activity.startedAt)
                continue
            }
            consider(activity.timeline.first?.at)
            guard activity.isLive else {
                consider(activity.dismissAt)
                continue
            }
            consider(activity.expiresAt)
            if activity.status == .active, let staleAt = activity.staleAt, staleAt > now { consider(staleAt) }
            if let timer = activity.timer, timer.isRunning {
                if case .end = timer.expiry { consider(timer.endTime) }
                let position = timer.position(at: now)
                for phase in activity.phases {
                    if let end = phase.end, end > position { consider(timer.wallTime(reaching: end)) }
                }
            }
            consider(nextChange(activity))
        }
        return earliest
    }

    /// The render of a stored activity (one of `storage`) at `now`: the last tick's when `now`
    /// is that tick's moment (the entry goes whenever the activity changes), else a new one.
    func stored(_ activity: Activity, now: UnixTime, timeZoneOffset: Double, style: RenderStyle) -> CachedRender {
        if renderCacheMoment == RenderMoment(now: now, timeZoneOffset: timeZoneOffset), renderCacheStyle == style,
           let cached = renderCache[activity.id] {
            return cached
        }
        let output = ActivityRenderer(activity: activity, kind: kind(of: activity), now: now,
                                      timeZoneOffset: timeZoneOffset, style: style).render()
        return CachedRender(rendered: output.rendered, nextChange: output.nextChange)
    }
}

/// One activity's texts at a moment and when they next change, for the daemon's reads.
public struct ActivityView: Sendable {
    public let rendered: RenderedActivity
    public let nextChange: UnixTime?
}

/// One activity's texts at a moment and when they next change (see `ActivityRegistry.renderCache`).
struct CachedRender: Sendable {
    let rendered: RenderedActivity
    let nextChange: UnixTime?
}

/// The time and time-zone offset a render was made for.
struct RenderMoment: Equatable, Sendable {
    let now: UnixTime
    let timeZoneOffset: Double
}
