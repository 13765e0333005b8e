import Foundation

/// `liveactivity doctor`'s Plasma line: whether an installed applet fits the Plasma that runs
/// here. Plasma 6 refuses the 5.27 applet and 5.27 cannot load the Plasma 6 one, so "installed"
/// alone says nothing. Reads only the environment and files (no process, no bus): the session's
/// major version from `KDE_SESSION_VERSION`, the installed Plasma's version from its session
/// file, and whether an applet sits in a panel from Plasma's own applet configuration.
struct PlasmaAppletCheck {
    static let plasma5Applet = "io.github.liveactivities.compact"
    static let plasma6Applet = "io.github.liveactivities.compact6"
    static let check = "Plasma applet"

    let environment: [String: String]

    private var dataHome: String {
        environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
    }

    private var home: String { environment["HOME"] ?? "" }

    private var dataDirs: [String] {
        (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init)
    }

    /// Where applet `id` is installed (the first data directory holding it), or nil.
    func installedPath(of id: String) -> String? {
        ([dataHome] + dataDirs).map { $0 + "/plasma/plasmoids/" + id }
            .first { FileManager.default.fileExists(atPath: $0 + "/metadata.json") }
    }

    /// The major version of the running Plasma session (nil outside Plasma).
    var sessionMajor: Int? {
        guard let desktop = environment["XDG_CURRENT_DESKTOP"], desktop.split(separator: ":").contains("KDE") else {
            return nil
        }
        return environment["KDE_SESSION_VERSION"].flatMap { Int($0) }
    }

    /// The installed Plasma's version, e.g. "6.3.6": `X-KDE-PluginInfo-Version` of its session file.
    var installedVersion: String? {
        for directory in dataDirs {
            for sessions in ["xsessions", "wayland-sessions"] {
                for name in ["plasma.desktop", "plasmax11.desktop"] {
                    let path = directory + "/" + sessions + "/" + name
                    guard let data = FileManager.default.contents(atPath: path) else { continue }
                    let text = String(decoding: data, as: UTF8.self)
                    if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("X-KDE-PluginInfo-Version=") }) {
                        return String(line.dropFirst("X-KDE-PluginInfo-Version=".count))
                    }
                }
            }
        }
        return nil
    }

    /// The applet ids placed in Plasma's panels and desktops (its applets configuration file).
    var placedApplets: Set<String> {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        guard let data = FileManager.default.contents(atPath: config + "/plasma-org.kde.plasma.desktop-appletsrc") else {
            return []
        }
        return Set(String(decoding: data, as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("plugin=") }.map { String($0.dropFirst("plugin=".count)) })
    }

    func findings() -> [Doctor.Finding] {
        let paths = [5: installedPath(of: Self.plasma5Applet), 6: installedPath(of: Self.plasma6Applet)]
        guard paths.values.contains(where: { $0 != nil }) else {
            return [Doctor.Finding(level: .info, check: Self.check, text: "not installed (optional, for KDE Plasma)")]
        }
        let version = installedVersion
        guard let major = sessionMajor ?? version.flatMap({ Int($0.prefix { $0 != "." }) }) else {
            let list = paths.values.compactMap { $0 }.sorted().joined(separator: ", ")
            return [Doctor.Finding(level: .info, check: Self.check, text: "installed in \(list); no Plasma found here")]
        }
        let plasma = "Plasma " + (version.map { $0.hasPrefix("\(major).") ? $0 : "\(major)" } ?? "\(major)")
            + (sessionMajor == nil ? " (installed, not running here)" : "")
        let fitting = major >= 6 ? Self.plasma6Applet : Self.plasma5Applet
        let other = major >= 6 ? Self.plasma5Applet : Self.plasma6Applet
        guard let path = paths[major >= 6 ? 6 : 5] ?? nil else {
            return [Doctor.Finding(level: sessionMajor == nil ? .warning : .broken, check: Self.check,
                                   text: "\(plasma) cannot load the installed \(other); \(fitting) is not installed",
                                   fix: "reinstall the package (or make install): it installs both applets")]
        }
        var text = "\(fitting) fits \(plasma), installed in \(path)"
        if major >= 6, let minor = version.flatMap({ $0.split(separator: ".").dropFirst().first }).flatMap({ Int($0) }),
           version?.hasPrefix("6.") == true {
            text += minor >= 4 ? "; it follows the daemon's signals" : "; it reads the compact text once a second (Plasma 6.4 follows signals)"
        }
        let placed = placedApplets
        if placed.contains(fitting) {
            return [Doctor.Finding(level: .ok, check: Self.check, text: text + "; in a panel")]
        }
        if placed.contains(other) {
            return [Doctor.Finding(level: .warning, check: Self.check,
                                   text: text + "; the panel holds \(other), which \(plasma) cannot show",
                                   fix: "remove that widget and add \"Live Activities\" again")]
        }
        return [Doctor.Finding(level: .ok, check: Self.check, text: text,
                               fix: "if the panel shows nothing: add the widget \"Live Activities\" (\(fitting)) to a panel")]
    }
}
