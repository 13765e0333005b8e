import Foundation

/// What differs between sway, i3 and Hyprland for `bind`: where the config lives, the
/// drop-in file we own, how a config includes it, how a binding line reads, how to reload.
struct TilingFlavour: Sendable {
    let desktop: HotkeyDesktop

    init(_ desktop: HotkeyDesktop) { self.desktop = desktop }

    var title: String { ["sway": "sway", "i3": "i3", "hyprland": "Hyprland"][desktop.rawValue] ?? desktop.rawValue }

    /// The user's main config, relative to the config home.
    var mainConfig: String { desktop == .hyprland ? "hypr/hyprland.conf" : "\(desktop.rawValue)/config" }

    /// Our drop-in, relative to the config home.
    var dropIn: String { desktop == .hyprland ? "hypr/liveactivities.conf" : "\(desktop.rawValue)/config.d/liveactivities.conf" }

    /// The line a config needs to read a file (`include PATH` / `source = PATH`).
    func includeLine(_ path: String) -> String { desktop == .hyprland ? "source = \(path)" : "include \(path)" }

    /// The file pattern an include or source line names, or nil when `line` is not one.
    func includedPattern(_ line: String) -> String? {
        let text = line.trimmingCharacters(in: .whitespaces)
        if desktop == .hyprland {
            guard text.hasPrefix("source"), let equals = text.firstIndex(of: "="),
                  text[..<equals].trimmingCharacters(in: .whitespaces) == "source" else { return nil }
            return text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        guard text.hasPrefix("include ") || text.hasPrefix("include\t") else { return nil }
        var pattern = text.dropFirst("include".count).trimmingCharacters(in: .whitespaces)
        if pattern.count >= 2, let first = pattern.first, first == "\"" || first == "'", pattern.last == first {
            pattern = String(pattern.dropFirst().dropLast())
        }
        return pattern
    }

    /// A binding's line; the comment line before it names it (`# liveactivity bind NAME`).
    func line(for binding: HotkeyBinding) -> String {
        switch desktop {
        case .hyprland: "bind = \(binding.chord.hyprland), exec, \(binding.shellLine.replacingAll("#", with: "##"))"
        case .i3: "bindsym \(binding.chord.swayOrI3) exec --no-startup-id \(binding.shellLine)"
        default: "bindsym \(binding.chord.swayOrI3) exec \(binding.shellLine)"
        }
    }

    /// The keys and command of a binding line we wrote.
    func parse(_ line: String) -> (keys: String, command: String)? {
        if desktop == .hyprland {
            let parts = line.dropFirst("bind = ".count).split(separator: ",", maxSplits: 3).map { $0.trimmingCharacters(in: .whitespaces) }
            guard line.hasPrefix("bind = "), parts.count == 4 else { return nil }
            return (parts[0] + ", " + parts[1], parts[3].replacingAll("##", with: "#"))
        }
        let words = line.split(separator: " ", maxSplits: 2).map(String.init)
        guard words.count == 3, words[0] == "bindsym", words[2].hasPrefix("exec ") else { return nil }
        var command = String(words[2].dropFirst("exec ".count))
        if command.hasPrefix("--no-startup-id ") { command = String(command.dropFirst("--no-startup-id ".count)) }
        return (words[1], command)
    }

    /// The spelling of `chord` in a binding line.
    func spelling(of chord: KeyChord) -> String { desktop == .hyprland ? chord.hyprland : chord.swayOrI3 }

    /// The socket variable that says the compositor runs in this session, and its reload command.
    var reload: (variable: String, program: String, arguments: [String]) {
        switch desktop {
        case .hyprland: ("HYPRLAND_INSTANCE_SIGNATURE", "hyprctl", ["reload"])
        case .i3: ("I3SOCK", "i3-msg", ["reload"])
        default: ("SWAYSOCK", "swaymsg", ["reload"])
        }
    }
}
