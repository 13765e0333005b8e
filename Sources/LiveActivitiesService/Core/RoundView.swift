import ActivityFiles
import ActivityModel

/// The activities as the bus sees them at one moment: the clock and the zone offset read
/// once, each activity rendered at most once (in the standard style, with seconds), and every
/// read of that moment served from those renders: the properties of a GetAll, InterfacesAdded
/// or GetManagedObjects, a publishing round's PropertiesChanged, the compact text, the tray
/// and the next deadline. It lives for one call or one round and never across a change of
/// the registry, so it cannot show a stale activity.
final class RoundView {
    let now: Double
    let utcOffset: Double
    private let registry: ActivityRegistry
    private let pushToken: (String) -> String
    /// Buttons shown before the kind's (a session waiting for the user's away-time choice).
    private let extraButtons: ((String) -> [CardButton])?
    /// The daemon's `lock-screen` setting, before each kind's own say.
    private let lockScreen: LockScreenPrivacy
    private var views: [String: ActivityView] = [:]
    private var liveSnapshots: [ActivitySnapshot]?
    /// Renders in other styles kept across rounds until they can change (none: each is made anew).
    private let styledRenders: StyledRenders?

    init(now: Double, utcOffset: Double, registry: ActivityRegistry, pushToken: @escaping (String) -> String,
         extraButtons: ((String) -> [CardButton])? = nil, lockScreen: LockScreenPrivacy = .full,
         styledRenders: StyledRenders? = nil) {
        self.now = now
        self.styledRenders = styledRenders
        self.lockScreen = lockScreen
        self.utcOffset = utcOffset
        self.registry = registry
        self.pushToken = pushToken
        self.extraButtons = extraButtons
    }

    /// Whether cards are on (`Enabled`) at this moment.
    var enabled: Bool { registry.enabled }
    /// The kinds at this moment.
    var catalog: KindCatalog { registry.catalog }
    /// Every activity, live or not, in the registry's order.
    var activities: [Activity] { registry.activities }
    /// `ActiveCount`: the live activities.
    var activeCount: Int { registry.liveCount }

    /// Whether there is an activity `id`.
    func contains(_ id: String) -> Bool { registry.activity(id) != nil }

    /// The activity `id` and its texts; nil when there is none.
    func snapshot(_ id: String) -> ActivitySnapshot? {
        guard let activity = registry.activity(id) else { return nil }
        return snapshot(of: activity)
    }

    private func snapshot(of activity: Activity) -> ActivitySnapshot {
        let id = activity.id.rawValue
        var rendered = view(of: activity).rendered
        if let extraButtons { rendered.buttons = extraButtons(id) + rendered.buttons }
        let kind = registry.catalog.kind(named: activity.kind)
        return ActivitySnapshot(activity: activity, rendered: rendered, pushToken: pushToken(id),
                                lockScreen: kind?.showsOnLockScreen == false ? .off : lockScreen,
                                kindName: kind?.displayName ?? activity.kind)
    }

    private func view(of activity: Activity) -> ActivityView {
        if let known = views[activity.id.rawValue] { return known }
        let made = registry.view(of: activity, now: now, timeZoneOffset: utcOffset, style: .standard)
        views[activity.id.rawValue] = made
        return made
    }

    /// When the texts of `id` next change by themselves (its next tick), if they do.
    func nextChange(_ id: String) -> Double? {
        guard let activity = registry.activity(id) else { return nil }
        return view(of: activity).nextChange
    }

    /// The live activities, most relevant first (sorted once).
    var live: [ActivitySnapshot] {
        if let liveSnapshots { return liveSnapshots }
        let made = registry.live.map { snapshot(of: $0) }
        liveSnapshots = made
        return made
    }

    /// `CompactText` at this moment.
    var compactText: String { ActivityRegistry.compactText(of: live.map(\.rendered)) }

    /// The earliest moment a text on the bus or anything due could change (the tick's deadline).
    var nextDeadline: Double? { registry.nextDeadline(after: now) { view(of: $0).nextChange } }

    /// The card's texts of `snapshot` in `style` (a server whose cards show no seconds); the
    /// bus's own render when the style is the standard one.
    func card(of snapshot: ActivitySnapshot, style: RenderStyle) -> ActivitySnapshot {
        guard style != .standard else { return snapshot }
        var rendered = styledRenders?.rendered(snapshot.activity, style: style, now: now, utcOffset: utcOffset, registry: registry)
            ?? registry.render(snapshot.activity, now: now, timeZoneOffset: utcOffset, style: style)
        if let extraButtons { rendered.buttons = extraButtons(snapshot.activity.id.rawValue) + rendered.buttons }
        return ActivitySnapshot(activity: snapshot.activity, rendered: rendered, pushToken: snapshot.pushToken,
                                lockScreen: snapshot.lockScreen, kindName: snapshot.kindName)
    }
}
