import ActivityModel

/// Each activity's render in a style other than the bus's (the cards of a server without
/// seconds, the MPRIS player's minutes), kept until it can change. Without it a per-second
/// tick rendered a timer once or twice more for texts that change once a minute (issue 29).
/// An entry serves while the activity, the kinds, the zone offset and the style are the ones
/// it was made for and the moment lies between its render and its next change; anything else
/// renders anew. It lives as long as the service and is read on the loop's thread only.
final class StyledRenders {
    private struct Entry {
        let activity: Activity
        let catalogGeneration: Int
        let utcOffset: Double
        let renderedAt: Double
        let view: ActivityView

        /// The style is the entry's key.
        func serves(_ activity: Activity, generation: Int, utcOffset: Double, now: Double) -> Bool {
            guard self.utcOffset == utcOffset, catalogGeneration == generation,
                  renderedAt <= now, view.nextChange.map({ now < $0 }) ?? true else { return false }
            return self.activity == activity
        }
    }

    /// One entry per activity and style; an ended activity's entries go at the next render of another.
    private var entries: [StyleKey: Entry] = [:]
    /// How many renders it made rather than kept (read by tests).
    private(set) var made = 0

    private struct StyleKey: Hashable {
        let id: ActivityID
        let style: RenderStyle
    }

    /// The texts of `activity` in `style` at `now`, rendered by `registry` unless kept.
    func rendered(_ activity: Activity, style: RenderStyle, now: Double, utcOffset: Double,
                  registry: ActivityRegistry) -> RenderedActivity {
        let key = StyleKey(id: activity.id, style: style)
        if let kept = entries[key],
           kept.serves(activity, generation: registry.catalogGeneration, utcOffset: utcOffset, now: now) {
            return kept.view.rendered
        }
        let view = registry.view(of: activity, now: now, timeZoneOffset: utcOffset, style: style)
        made += 1
        if entries.count > 2 * max(registry.activities.count, 1) {
            entries = entries.filter { registry.activity($0.key.id.rawValue) != nil }
        }
        entries[key] = Entry(activity: activity, catalogGeneration: registry.catalogGeneration, utcOffset: utcOffset,
                             renderedAt: now, view: view)
        return view.rendered
    }
}
