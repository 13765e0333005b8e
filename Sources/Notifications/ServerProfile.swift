/// How cards are rendered for one notification server: the per-server quirks (found by the
/// desktop matrix, docs/desktops.md) as data, so rendering stays a pure function.
/// `servers.conf` overrides them per server (`ProfileOverrides`).
public struct ServerProfile: Sendable, Equatable {
    /// Send progress as the int32 `value` hint (dunst, mako, swaync); otherwise a text bar in the body.
    public var sendsValueHint: Bool
    /// The server parses body markup: escape `&`, `<`, `>`; otherwise strip tags.
    public var bodyMarkup: Bool
    /// Routine updates go out at urgency low, so the server does not pop the banner again (GNOME Shell).
    public var routineUrgencyLow: Bool
    /// Whether the card may show seconds (GNOME Shell would re-pop or flicker; the daemon renders accordingly).
    public var showsSeconds: Bool
    /// Never send an identical notification within this many seconds (KDE Plasma rejects it).
    public var minimumIdenticalInterval: Double
    /// At most this many cards on the server at once; 0 = no limit. notification-daemon shows
    /// one bubble at a time and queues the rest behind a never-expiring card (seen on screen).
    public var maxVisibleCards: Int
    /// CloseNotification leaves the bubble on screen (notification-daemon 3.20, seen on screen):
    /// a card is first replaced by one that expires at once, then closed. Built in only:
    /// `servers.conf` has no key for it.
    public var closesByExpiring: Bool
    /// Each card goes under a notification source of its own (`NotificationRequest.make`'s
    /// `sourceSlot`): GNOME Shell 43–47 keep at most 3 notifications per source (keyed by app
    /// name and pid) and destroy the oldest, so a fourth live card would take one away. Built in only.
    public var sourcePerCard: Bool
    /// GNOME Shell 46+ decides on a banner before it applies a replace's urgency: a replace is
    /// judged by the urgency of the Notify before it (the first routine update at low after a
    /// Start at normal popped the banner again), and a card that was replaced since its last
    /// banner never pops again (an alert sent as a replace showed nothing). So there each send
    /// at normal urgency is followed at once by the same card at low (while its banner shows or
    /// waits: no second banner; only that second one carries the sound, since re-showing a banner
    /// plays its sound again), and an alert closes the card and shows it as a new one. Seen on
    /// GNOME 48.7 and 50.5 (`scripts/desktop-matrix gnome48-cards gnome50-cards`). Built in only.
    public var urgencyAppliesLate: Bool

    public init(sendsValueHint: Bool = false, bodyMarkup: Bool = false, routineUrgencyLow: Bool = false,
                showsSeconds: Bool = true, minimumIdenticalInterval: Double = 0, maxVisibleCards: Int = 0,
                closesByExpiring: Bool = false, sourcePerCard: Bool = false,
                urgencyAppliesLate: Bool = false) {
        self.sendsValueHint = sendsValueHint
        self.bodyMarkup = bodyMarkup
        self.routineUrgencyLow = routineUrgencyLow
        self.showsSeconds = showsSeconds
        self.minimumIdenticalInterval = minimumIdenticalInterval
        self.maxVisibleCards = maxVisibleCards
        self.closesByExpiring = closesByExpiring
        self.sourcePerCard = sourcePerCard
        self.urgencyAppliesLate = urgencyAppliesLate
    }

    /// The profile for an unknown server (or none yet): text progress, no markup, plain urgency.
    public static let fallback = ServerProfile()

    /// The profile for `info`: server-specific rows from the table, body markup from the capabilities.
    public static func detect(_ info: ServerInfo) -> ServerProfile {
        var profile = ServerProfile(bodyMarkup: info.hasCapability("body-markup"))
        switch ServerKind(info) {
        case .gnomeShell:
            profile.routineUrgencyLow = true
            profile.showsSeconds = false
            // MAX_NOTIFICATIONS_PER_SOURCE: 3 up to GNOME 47, 10 since 48. An unreadable version
            // counts as old: separate sources cost nothing there.
            let major = Int(info.version.prefix { $0.isNumber }) ?? 0
            profile.sourcePerCard = major < 48
            profile.urgencyAppliesLate = major >= 46
        case .kdePlasma:
            profile.minimumIdenticalInterval = 1.0
        case .dunst, .mako, .swaync:
            profile.sendsValueHint = true
        case .notificationDaemon:
            profile.maxVisibleCards = 1
            profile.closesByExpiring = true
        case .xfce4Notifyd, .unknown:
            break
        }
        return profile
    }
}

/// The notification servers we know quirks of, recognised from GetServerInformation.
public enum ServerKind: String, Sendable, Equatable, CaseIterable {
    case gnomeShell, kdePlasma, dunst, mako, swaync, xfce4Notifyd, notificationDaemon, unknown

    public init(_ info: ServerInfo) {
        let name = info.name.lowercased()
        let vendor = info.vendor.lowercased()
        if name == "gnome-shell" || (vendor == "gnome" && name.contains("shell")) {
            self = .gnomeShell
        } else if name.contains("plasma") || vendor == "kde" {
            self = .kdePlasma
        } else if name == "dunst" {
            self = .dunst
        } else if name == "mako" {
            self = .mako
        } else if name.contains("swaync") || name.contains("swaynotificationcenter") {
            self = .swaync
        } else if name.contains("xfce") {
            self = .xfce4Notifyd
        } else if name == "notification daemon" || name == "notification-daemon" {
            self = .notificationDaemon
        } else {
            self = .unknown
        }
    }
}
