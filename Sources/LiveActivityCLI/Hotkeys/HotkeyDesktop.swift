/// The desktops whose shortcuts `liveactivity bind` writes, and how the running one is told
/// from the session's environment (so one command works everywhere without a flag).
enum HotkeyDesktop: String, CaseIterable, Sendable {
    case gnome, plasma, sway, i3, hyprland

    /// The desktop named by `--desktop` (also `kde`), or the running one: a compositor's own
    /// socket variable first (a sway session may say `XDG_CURRENT_DESKTOP=GNOME` for portals),
    /// then `XDG_CURRENT_DESKTOP`.
    static func resolve(forced: String?, environment: [String: String]) throws(CLIError) -> HotkeyDesktop {
        if let forced {
            if forced.lowercased() == "kde" { return .plasma }
            guard let desktop = HotkeyDesktop(rawValue: forced.lowercased()) else {
                throw .usage("--desktop \(forced): expected \(allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return desktop
        }
        let set = { (name: String) in !(environment[name] ?? "").isEmpty }
        if set("HYPRLAND_INSTANCE_SIGNATURE") { return .hyprland }
        if set("SWAYSOCK") { return .sway }
        if set("I3SOCK") { return .i3 }
        let names = (environment["XDG_CURRENT_DESKTOP"] ?? "").lowercased().split(separator: ":").map(String.init)
        for name in names {
            switch name {
            case "gnome", "gnome-classic", "gnome-flashback", "ubuntu", "pop", "unity": return .gnome
            case "kde", "plasma": return .plasma
            case "sway": return .sway
            case "i3": return .i3
            case "hyprland": return .hyprland
            default: continue
            }
        }
        let seen = environment["XDG_CURRENT_DESKTOP"].map { "XDG_CURRENT_DESKTOP is \"\($0)\"" } ?? "XDG_CURRENT_DESKTOP is unset"
        throw .usage("cannot tell which desktop runs (\(seen)); add --desktop gnome, plasma, sway, i3 or hyprland")
    }
}
