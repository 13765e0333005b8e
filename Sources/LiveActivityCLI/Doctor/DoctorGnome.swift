import DBus
import Foundation

/// The doctor's GNOME Shell line: which builds of our extension are installed, whether one
/// fits the running shell's version, and whether it is enabled. "Installed" alone told a
/// Debian 13 user `[ok]` while GNOME 48 refused the 43/44 build as out of date. Everything is
/// read without side effects: the files, `org.gnome.Shell`'s `ShellVersion` property and
/// `org.gnome.Shell.Extensions.GetExtensionInfo` when the shell is on the bus, else
/// `gnome-shell --version`.
struct GnomeExtensionCheck {
    typealias Finding = Doctor.Finding

    /// One installed build: its uuid, where it is, and the shell versions its metadata declares.
    struct InstalledBuild: Equatable {
        var uuid: String
        var path: String
        var shellVersions: [String]
        /// Its `session-modes`: with `unlock-dialog` it stays enabled on the lock screen (issue 26).
        var sessionModes: [String] = []
    }

    /// What the running shell says of one extension (GetExtensionInfo's `state` and `error`).
    struct ShellState: Equatable {
        var state: Int
        var error: String
    }

    /// Our builds, newest first: each declares only the shell versions it runs on.
    static let uuids = ["liveactivities-shell45@liveactivities.github.io", "liveactivities@liveactivities.github.io"]

    /// The finding for what was found. `shellVersion` nil: no shell found; `states` is empty
    /// when the shell is not on the bus (enabled or not cannot be told then).
    static func evaluate(installed: [InstalledBuild], shellVersion: String?, states: [String: ShellState]) -> Finding {
        guard !installed.isEmpty else {
            return Finding(level: .info, check: "GNOME extension", text: "not installed (optional, for GNOME Shell)")
        }
        let installedText = installed.map { "\($0.uuid) (\(versionsText($0.shellVersions)))" }.joined(separator: ", ")
        guard let shellVersion else {
            return Finding(level: .ok, check: "GNOME extension", text: "installed: \(installedText); no GNOME Shell found to match")
        }
        guard let fitting = fittingBuild(installed, shellVersion: shellVersion) else {
            let major = String(shellVersion.prefix { $0 != "." })
            return Finding(level: .broken, check: "GNOME extension",
                           text: "GNOME Shell \(shellVersion) loads none of the installed builds: \(installedText)",
                           fix: "install a liveactivities release that supports GNOME Shell \(major)")
        }
        let shell = "GNOME Shell \(shellVersion): \(fitting.uuid) fits"
        guard !states.isEmpty else {
            return Finding(level: .ok, check: "GNOME extension", text: "\(shell) (the shell is not running: enabled unknown)",
                           fix: "if the top bar shows nothing: gnome-extensions enable \(fitting.uuid)")
        }
        switch states[fitting.uuid] {
        case ShellState(state: 1, error: "")?, ShellState(state: 8, error: "")?:
            return Finding(level: .ok, check: "GNOME extension", text: "\(shell) and is enabled")
        case let state? where state.state == 3 || !state.error.isEmpty:
            return Finding(level: .broken, check: "GNOME extension", text: "\(shell) but failed: \(state.error)",
                           fix: "journalctl --user -b | grep -i liveactivities shows the shell's log")
        case let state? where state.state == 99 || state.state == 0:
            return Finding(level: .warning, check: "GNOME extension", text: "\(shell) but the shell has not loaded it yet",
                           fix: "log out and in again (on X11: Alt+F2, r), then gnome-extensions enable \(fitting.uuid)")
        default:
            return Finding(level: .warning, check: "GNOME extension", text: "\(shell) but is not enabled",
                           fix: "gnome-extensions enable \(fitting.uuid)")
        }
    }

    /// The installed build that the shell of `shellVersion` loads, if one declares it.
    static func fittingBuild(_ installed: [InstalledBuild], shellVersion: String) -> InstalledBuild? {
        let major = String(shellVersion.prefix { $0 != "." })
        return installed.first { $0.shellVersions.contains(major) || $0.shellVersions.contains(shellVersion) }
    }

    static func versionsText(_ versions: [String]) -> String {
        guard let first = versions.first, let last = versions.last else { return "no shell version" }
        return versions.count == 1 ? "GNOME \(first)" : "GNOME \(first)–\(last)"
    }

    // MARK: Reading the system

    /// Our builds found in the data dirs, the user's first (the shell prefers that one too).
    static func installedBuilds(dataDirectories: [String]) -> [InstalledBuild] {
        uuids.compactMap { uuid in
            for directory in dataDirectories {
                let path = "\(directory)/gnome-shell/extensions/\(uuid)"
                guard let data = FileManager.default.contents(atPath: path + "/metadata.json") else { continue }
                let metadata = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
                return InstalledBuild(uuid: uuid, path: path, shellVersions: metadata?["shell-version"] as? [String] ?? [],
                                      sessionModes: metadata?["session-modes"] as? [String] ?? ["user"])
            }
            return nil
        }
    }

    /// The running shell's version from its bus property, or nil when it is not on the bus.
    static func runningShellVersion(_ probes: DoctorProbes) -> String? {
        guard probes.hasOwner("org.gnome.Shell") else { return nil }
        return (try? probes.call("org.gnome.Shell", "/org/gnome/Shell", "org.freedesktop.DBus.Properties", "Get",
                                 [.string("org.gnome.Shell"), .string("ShellVersion")]))?.first?.string
    }

    /// What the running shell says of each of our builds (empty when it cannot be asked).
    static func shellStates(_ probes: DoctorProbes) -> [String: ShellState] {
        var states: [String: ShellState] = [:]
        for uuid in uuids {
            guard let info = (try? probes.call("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Extensions",
                                               "GetExtensionInfo", [.string(uuid)]))?.first?.vardict,
                  let state = info["state"]?.double ?? info["state"]?.integer.map(Double.init) else { continue }
            states[uuid] = ShellState(state: Int(state), error: info["error"]?.string ?? "")
        }
        return states
    }

    /// `gnome-shell --version` ("GNOME Shell 48.7") when the binary is on PATH; it only prints.
    static func installedShellVersion(path: String) -> String? {
        DoctorTool.output(of: "gnome-shell", ["--version"], path: path)?.split(separator: " ").last
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .flatMap { $0.first?.isNumber == true ? $0 : nil }
    }
}
