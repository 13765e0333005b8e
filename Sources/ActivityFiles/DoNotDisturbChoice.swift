/// Which Do Not Disturb the daemon uses, chosen from the notification server's name (as
/// `GetServerInformation` gives it): pure data, shared by the daemon (which acts on it) and
/// `liveactivity doctor` (which says it), so the two never disagree.
public enum DoNotDisturbChoice: String, Sendable, CaseIterable, Codable {
    /// GNOME Shell: the gsetting `org.gnome.desktop.notifications show-banners` set to false.
    case gnomeBanners = "gnome-show-banners"
    /// KDE Plasma: `org.freedesktop.Notifications.Inhibit` on the daemon's own connection.
    case plasmaInhibit = "plasma-inhibit"
    /// dunst: `dunstctl set-paused true`.
    case dunstPause = "dunst-paused"
    /// mako: `makoctl mode -a do-not-disturb` (the user's config defines the mode).
    case makoMode = "mako-mode"
    /// SwayNotificationCenter: `swaync-client --dnd-on`.
    case swayncDND = "swaync-dnd"

    /// The choice for a server, or nil when the server has no Do Not Disturb we can drive.
    public static func forServer(named name: String, vendor: String = "") -> DoNotDisturbChoice? {
        let name = name.lowercased(), vendor = vendor.lowercased()
        if name == "gnome-shell" || (vendor == "gnome" && name.contains("shell")) { return .gnomeBanners }
        if name.contains("plasma") || vendor == "kde" { return .plasmaInhibit }
        if name == "dunst" { return .dunstPause }
        if name == "mako" { return .makoMode }
        if name.contains("swaync") || name.contains("swaynotificationcenter") { return .swayncDND }
        return nil
    }

    /// Whether a critical notification still shows while this Do Not Disturb is on (GNOME Shell
    /// and Plasma show them; paused dunst shows nothing; mako and swaync follow the user's config).
    public var showsCritical: Bool {
        self == .gnomeBanners || self == .plasmaInhibit
    }

    /// What a user reads in `doctor`: the mechanism and how to check it by hand.
    public var summary: String {
        switch self {
        case .gnomeBanners: return "GNOME show-banners gsetting (gsettings get org.gnome.desktop.notifications show-banners)"
        case .plasmaInhibit: return "Plasma notification inhibition (org.freedesktop.Notifications Inhibit, property Inhibited)"
        case .dunstPause: return "dunst pause (dunstctl is-paused)"
        case .makoMode: return "mako mode do-not-disturb (makoctl mode; define [mode=do-not-disturb] invisible=1 in mako's config)"
        case .swayncDND: return "swaync Do Not Disturb (swaync-client --get-dnd)"
        }
    }
}

/// Where idleness is read from, for `doctor` and the daemon's log.
public enum IdleSourceChoice: String, Sendable {
    /// `org.gnome.Mutter.IdleMonitor`: AddIdleWatch and AddUserActiveWatch, events only.
    case mutter = "org.gnome.Mutter.IdleMonitor"
    /// `org.freedesktop.ScreenSaver.GetSessionIdleTime`, polled only while a pausing session runs.
    case screenSaver = "org.freedesktop.ScreenSaver"
}
