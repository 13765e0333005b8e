import ActivityFiles

/// One desktop's own Do Not Disturb, as the daemon drives it: read the state the user had,
/// turn it on, put the user's state back. One conformer per notification server
/// (`DoNotDisturbControllers`). Calls block (they run a tool or make a bus call) and are made
/// only on the `DesktopQuieter`'s worker thread.
package protocol DoNotDisturb: AnyObject {
    var choice: DoNotDisturbChoice { get }
    /// The user's state now, as text that `restore` takes back (e.g. `true`, a list of modes).
    func currentState() throws -> String
    /// Turns Do Not Disturb on (harmless when it is on).
    func turnOn() throws
    /// Puts back a state `currentState` returned.
    func restore(_ previous: String) throws
    /// The state with Do Not Disturb off, given the state now: what goes back when the user's
    /// own state is lost (an unreadable marker). E.g. `false` for dunst; mako's modes without
    /// `do-not-disturb`.
    func notQuietState(from current: String) -> String
}

/// GNOME Shell: banners off (`show-banners false`); GNOME still shows critical notifications.
package final class GnomeBannersDoNotDisturb: DoNotDisturb {
    package let choice = DoNotDisturbChoice.gnomeBanners
    private static let schema = "org.gnome.desktop.notifications", key = "show-banners"

    package func currentState() throws -> String {
        try ToolCommand("gsettings", ["get", Self.schema, Self.key]).run()
    }

    package func turnOn() throws {
        _ = try ToolCommand("gsettings", ["set", Self.schema, Self.key, "false"]).run()
    }

    package func restore(_ previous: String) throws {
        _ = try ToolCommand("gsettings", ["set", Self.schema, Self.key, previous == "false" ? "false" : "true"]).run()
    }

    package func notQuietState(from current: String) -> String { "true" }
}

/// dunst: paused (`dunstctl set-paused true`). A paused dunst queues every notification, ours
/// too, and shows them when it resumes.
package final class DunstDoNotDisturb: DoNotDisturb {
    package let choice = DoNotDisturbChoice.dunstPause

    package func currentState() throws -> String { try ToolCommand("dunstctl", ["is-paused"]).run() }

    package func turnOn() throws { _ = try ToolCommand("dunstctl", ["set-paused", "true"]).run() }

    package func restore(_ previous: String) throws {
        _ = try ToolCommand("dunstctl", ["set-paused", previous == "true" ? "true" : "false"]).run()
    }

    package func notQuietState(from current: String) -> String { "false" }
}

/// mako: the mode `do-not-disturb` added to the modes in force; the previous set of modes is
/// put back exactly (`makoctl mode -s`).
package final class MakoDoNotDisturb: DoNotDisturb {
    package let choice = DoNotDisturbChoice.makoMode
    static let mode = "do-not-disturb"

    package func currentState() throws -> String {
        try ToolCommand("makoctl", ["mode"]).run().split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    package func turnOn() throws { _ = try ToolCommand("makoctl", ["mode", "-a", Self.mode]).run() }

    package func restore(_ previous: String) throws {
        let modes = previous.split(separator: " ").map(String.init)
        _ = try ToolCommand("makoctl", ["mode", "-s"] + (modes.isEmpty ? ["default"] : modes)).run()
    }

    package func notQuietState(from current: String) -> String {
        current.split(separator: " ").filter { $0 != Self.mode }.joined(separator: " ")
    }
}

/// SwayNotificationCenter: its Do Not Disturb (`swaync-client --dnd-on`, `--get-dnd`).
package final class SwayncDoNotDisturb: DoNotDisturb {
    package let choice = DoNotDisturbChoice.swayncDND

    package func currentState() throws -> String { try ToolCommand("swaync-client", ["--get-dnd", "--skip-wait"]).run() }

    package func turnOn() throws { _ = try ToolCommand("swaync-client", ["--dnd-on", "--skip-wait"]).run() }

    package func restore(_ previous: String) throws {
        _ = try ToolCommand("swaync-client", [previous == "true" ? "--dnd-on" : "--dnd-off", "--skip-wait"]).run()
    }

    package func notQuietState(from current: String) -> String { "false" }
}

/// The controller for each choice.
package enum DoNotDisturbControllers {
    package static func make(_ choice: DoNotDisturbChoice) -> any DoNotDisturb {
        switch choice {
        case .gnomeBanners: return GnomeBannersDoNotDisturb()
        case .plasmaInhibit: return PlasmaDoNotDisturb()
        case .dunstPause: return DunstDoNotDisturb()
        case .makoMode: return MakoDoNotDisturb()
        case .swayncDND: return SwayncDoNotDisturb()
        }
    }
}
