import ActivityModel
import ActivityFiles
import LiveActivitiesContract

/// The man pages `liveactivity(1)`, `liveactivityd(8)` and `liveactivityd.conf(5)`, written
/// as roff from the same tables the programs use (`CommandSpec.all`, `DaemonConfig.keys`,
/// `HumanTime.acceptedForms`), so a page cannot disagree with `--help`.
enum ManPages {
    static let names = ["liveactivity", "liveactivityd", "liveactivityd.conf"]

    /// The page named `name` (without section), or nil.
    static func page(_ name: String) -> String? {
        switch name {
        case "liveactivity": return liveactivity
        case "liveactivityd": return liveactivityd
        case "liveactivityd.conf": return configuration
        default: return nil
        }
    }

    /// Text as roff shows it literally: backslashes and dashes escaped, no line starting a request.
    static func escape(_ text: String) -> String {
        let escaped = text.replacingAll("\\", with: "\\e").replacingAll("-", with: "\\-")
        return escaped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }

    static func header(_ name: String, _ section: Int, _ title: String) -> [String] {
        [".TH \(name.uppercased()) \(section) \"\" \"LiveActivities \(LiveActivitiesVersion.current)\" \"\(title)\""]
    }

    static func section(_ title: String, _ paragraphs: [String]) -> [String] {
        [".SH \(title)"] + paragraphs.enumerated().flatMap { index, text in (index > 0 ? [".PP"] : []) + [escape(text)] }
    }

    /// A `.TP` item: `tag` in bold, then its text.
    static func item(_ tag: String, _ text: String) -> [String] {
        [".TP", "\\fB\(escape(tag))\\fR", escape(text)]
    }

    static var liveactivity: String {
        var lines = header("liveactivity", 1, "User Commands")
        lines += section("NAME", ["liveactivity - start, update and end Live Activities on the Linux desktop"])
        lines += [".SH SYNOPSIS", "\\fBliveactivity\\fR \\fICOMMAND\\fR [\\fIARGS\\fR...]"]
        lines += section("DESCRIPTION", [
            "liveactivity is the command line client of liveactivityd(8), which shows each activity as a "
                + "persistent desktop notification (the card) and in a compact view for status bars and the tray. "
                + "It calls the daemon over the D-Bus session bus; the daemon is started by D-Bus activation "
                + "on first use.",
        ])
        lines.append(".SH COMMANDS")
        for spec in CommandSpec.all {
            lines += [".SS \(escape(spec.usage))", escape(spec.summary)]
            for option in spec.options {
                let tag = "--\(option.name)" + (option.takesValue ? " VALUE" : "")
                lines += item(tag, option.help)
            }
            if !spec.examples.isEmpty {
                lines += [".PP", "Example:"] + spec.examples.flatMap { [".br", "\\fB\(escape($0))\\fR"] }
            }
        }
        for (_, usage, summary) in CommandSpec.printingCommands {
            lines += [".SS \(escape(usage))", escape(summary)]
        }
        lines += section("KEY=VALUE ARGUMENTS", [
            "start, update, end and toggle take a kind's attribute or state keys as KEY=VALUE. Values are typed as "
                + "the kind declares them (see liveactivity kinds), else integers, numbers with a dot and true/false "
                + "are sent as such and the rest as strings. key:s=, key:i=, key:d= and key:b= force a type; "
                + "attr.key= and state.key= force the place.",
        ])
        lines += section("TIMES", [
            "Time keys (start-time, timer-start, timer-end) and the options --stale-at and --dismiss-at take "
                + HumanTime.acceptedForms + ".",
            "A bare HH:MM is read in the local time zone: for start keys the latest such moment not in the "
                + "future (start-time=20:00 at 08:00 means last night), for the others the next one. A wall-clock "
                + "time skipped by a daylight saving change moves forward by the gap; one that happens twice is "
                + "the first. extend takes a duration: 90, 90s, 25m, 2h, 1d or 1h30m.",
        ])
        lines += section("HOTKEYS", [
            "bind writes KEYS (Super, Ctrl, Alt, Shift and one key, e.g. Super+Shift+F) where the running desktop keeps "
                + "its shortcuts: GNOME's media-keys custom keybindings (through gsettings), a hidden launcher in "
                + "~/.local/share/applications registered with kglobalaccel (Plasma 6 and 5.27), or a drop-in file that "
                + "sway, i3 or Hyprland includes (else it prints the line to add), then reloads the compositor. unbind "
                + "takes back exactly what bind wrote. The desktop is read from HYPRLAND_INSTANCE_SIGNATURE, SWAYSOCK, "
                + "I3SOCK and XDG_CURRENT_DESKTOP, or given with --desktop.",
        ])
        lines += section("APP IDENTITY", [
            "start and toggle --app-id ID name the application an activity belongs to by its desktop entry id "
                + "(e.g. org.gnome.Maps): its cards carry that desktop-entry hint, so GNOME and swaync show them under "
                + "the app's name and icon, with its notification settings. Without it they carry io.github.liveactivities.",
        ])
        lines += section("EXIT STATUS", [
            "0 done, 1 refused by the daemon (one line naming the error), 2 usage error, 3 no daemon on the bus; "
                + "doctor exits 1 when a check fails.",
        ])
        lines += section("ENVIRONMENT", [
            "DBUS_SESSION_BUS_ADDRESS: the bus to use. XDG_CONFIG_HOME, XDG_DATA_DIRS and XDG_STATE_HOME: where the "
                + "kind files and the history are read from, as the daemon does.",
        ])
        lines += section("SHELL COMPLETION", [
            "liveactivity completions bash, zsh or fish prints a completion script; the installed ones complete "
                + "commands, options, kinds, their keys and values, and the ids of live activities.",
        ])
        lines += section("SEE ALSO", ["liveactivityd(8), liveactivityd.conf(5)"])
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
