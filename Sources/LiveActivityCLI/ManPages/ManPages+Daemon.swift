import ActivityFiles
import LiveActivitiesContract

/// `liveactivityd(8)` and `liveactivityd.conf(5)`: the daemon's options and files, and the
/// config keys from `DaemonConfig.keys` with the one text below for what each does.
extension ManPages {
    /// What each config key does, by key (the table in `DaemonConfig.keys` says what it expects).
    static let configMeaning: [String: String] = [
        "cards": "Show cards (notifications) at all. LIVEACTIVITIES_NO_CARDS=1 also turns them off. Default on.",
        "tray": "Offer a StatusNotifierItem (a tray icon with the compact text) when a tray watcher exists. Default on.",
        "kde-jobs": "Under KDE Plasma, mirror activities with progress as KDE jobs. Default on.",
        "min-notify-interval": "At most one notification update per activity per this many seconds. Default 1.",
        "max-live-activities": "How many activities may be live or pending (a scheduled start) at once; more gives TooManyActivities. Default 32.",
        "max-payload-bytes": "The size of attributes and state together; more gives PayloadTooLarge. Default 4096.",
        "dismiss-after": "How long an ended card stays with the default dismissal, in seconds. Default 14400 (4 h).",
        "quiet-desktop": "Let kinds that ask for it (focus) turn on the desktop's own Do Not Disturb while a session runs, "
            + "and put the previous state back at its end, also after a crash. Default on.",
        "idle-pause-after": "Pause a running focus session after the session has been idle this long (from "
            + "org.gnome.Mutter.IdleMonitor, the Wayland compositor's ext-idle-notify-v1, or "
            + "org.freedesktop.ScreenSaver; liveactivity doctor names the one in use); 0 never pauses. Default 180.",
        "lock-screen": "What the lock screen shows of live activities (GNOME Shell's extension): full (title, body, "
            + "time and bar), private (the kind's name, time and bar only) or off. GNOME's own show-in-lock-screen = "
            + "false hides them all; a kind may say \"lock-screen\": false. Default full.",
        "mpris": "Publish the most relevant live activity with a timer as the MPRIS player "
            + "org.mpris.MediaPlayer2.liveactivities (Plasma's lock screen, media applets, KDE Connect). Default on.",
    ]

    static var liveactivityd: String {
        var lines = header("liveactivityd", 8, "System Administration")
        lines += section("NAME", ["liveactivityd - the LiveActivities daemon: iOS-style Live Activities for the Linux desktop"])
        lines += [".SH SYNOPSIS", "\\fBliveactivityd\\fR [\\fB\\-\\-help\\fR] [\\fB\\-\\-version\\fR]"]
        lines += section("DESCRIPTION", [
            "liveactivityd serves io.github.liveactivities.LiveActivities1 on the D-Bus session bus. Programs start, "
                + "update and end activities through it; it owns them from then on, re-renders their timers, and shows "
                + "each as one persistent desktop notification (the card), in a compact view (the CompactText property, "
                + "liveactivity watch) and as a StatusNotifierItem in the tray.",
            "It is started by D-Bus activation (the service file in /usr/share/dbus-1/services) or by the systemd user "
                + "unit liveactivityd.service, and keeps its activities across restarts.",
        ])
        lines.append(".SH OPTIONS")
        lines += item("--help", "Print a short usage text and exit.")
        lines += item("--version", "Print the version and exit.")
        lines += section("ENVIRONMENT", [
            "DBUS_SESSION_BUS_ADDRESS: the bus to serve. LIVEACTIVITIES_NO_CARDS=1: run without notifications "
                + "(compact view and bus only). XDG_CONFIG_HOME, XDG_DATA_DIRS, XDG_STATE_HOME: see FILES.",
        ])
        lines.append(".SH FILES")
        lines += item("$XDG_CONFIG_HOME/liveactivities/liveactivityd.conf", "Settings; see liveactivityd.conf(5).")
        lines += item("$XDG_CONFIG_HOME/liveactivities/servers.conf",
                      "Per notification server overrides of how cards render.")
        lines += item("$XDG_CONFIG_HOME/liveactivities/kinds/*.json", "Your own kinds; they override shipped ones of the same name.")
        lines += item("/usr/share/liveactivities/kinds/*.json", "The shipped kinds: generic, focus, fasting.")
        lines += item("$XDG_STATE_HOME/liveactivities/", "state.json, state.journal and history.jsonl.")
        lines += section("SEE ALSO", ["liveactivity(1), liveactivityd.conf(5), dbus-daemon(1)"])
        return lines.joined(separator: "\n") + "\n"
    }

    static var configuration: String {
        var lines = header("liveactivityd.conf", 5, "File Formats")
        lines += section("NAME", ["liveactivityd.conf - settings of the LiveActivities daemon"])
        lines += section("SYNOPSIS", ["$XDG_CONFIG_HOME/liveactivities/liveactivityd.conf"])
        lines += section("DESCRIPTION", [
            "liveactivityd(8) reads this file once at start. Each line is key = value; # starts a comment. A missing "
                + "file means the defaults. A line that cannot be used is logged with its number and ignored, and "
                + "liveactivity doctor lists it.",
        ])
        lines.append(".SH KEYS")
        for (key, expects) in DaemonConfig.keys {
            lines += item(key, (configMeaning[key].map { $0 + " " } ?? "") + "Expects \(expects).")
        }
        lines += section("EXAMPLE", ["tray = off"]) + [".br", "dismiss\\-after = 600"]
        lines += section("SEE ALSO", ["liveactivityd(8), liveactivity(1)"])
        return lines.joined(separator: "\n") + "\n"
    }
}
