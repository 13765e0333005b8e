import ActivityModel
import DBus
import Foundation
import ActivityFiles
import LiveActivitiesContract

/// `liveactivity doctor`: why nothing shows. One line per check (the daemon, the
/// notification server, the tray watcher, the GNOME extension and Plasma applet, the lock
/// screen, the config and kind files, push), each problem with a fix; broken checks make the exit status 1.
struct Doctor {
    /// One check's outcome.
    struct Finding {
        /// How it went, as the line's tag shows it; only `broken` makes the exit status 1.
        enum Level: String { case ok = "ok", info = "--", warning = "!!", broken = "XX" }
        var level: Level
        var check: String
        var text: String
        var fix: String? = nil

        var line: String {
            "[\(level.rawValue)] \(check): \(text)" + (fix.map { " (fix: \($0))" } ?? "")
        }
    }

    let environment: [String: String]
    let paths: DaemonPaths

    func run() -> [Finding] {
        var findings: [Finding] = []
        var shellVersion: String?
        var shellStates: [String: GnomeExtensionCheck.ShellState] = [:]
        let address = environment["DBUS_SESSION_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
        do throws(DBusError) {
            let connection: DBusConnection
            if let address { connection = try DBusConnection(address: address) } else { connection = try DBusConnection.sessionBus() }
            let probes = DoctorProbes(connection: connection)
            findings += BusChecks(probes: probes).run()
            findings += focusFindings(probes)
            shellVersion = GnomeExtensionCheck.runningShellVersion(probes)
            shellStates = shellVersion == nil ? [:] : GnomeExtensionCheck.shellStates(probes)
        } catch {
            findings.append(Finding(level: .broken, check: "session bus", text: "cannot connect: \(error.message)",
                                    fix: "log in to a desktop session, or export DBUS_SESSION_BUS_ADDRESS"))
        }
        let installed = GnomeExtensionCheck.installedBuilds(dataDirectories: [dataHome] + dataDirs)
        findings.append(GnomeExtensionCheck.evaluate(
            installed: installed,
            shellVersion: shellVersion ?? GnomeExtensionCheck.installedShellVersion(path: environment["PATH"] ?? ""),
            states: shellStates))
        findings.append(lockScreenFinding(runningShell: shellVersion, installed: installed, states: shellStates))
        findings += addOnFindings() + fileFindings()
        return findings
    }

    /// Do Not Disturb and idleness (`FocusChecks`).
    private func focusFindings(_ probes: DoctorProbes) -> [Finding] {
        let config = DaemonConfig.load(path: paths.configFile) { _ in }
        return FocusChecks(probes: probes, config: config, stateDirectory: paths.stateDirectory).run()
    }

    /// What the lock screen shows (`LockScreenCheck`): GNOME when its shell is on the bus,
    /// Plasma when the session says KDE.
    private func lockScreenFinding(runningShell: String?, installed: [GnomeExtensionCheck.InstalledBuild],
                                   states: [String: GnomeExtensionCheck.ShellState]) -> Finding {
        let config = DaemonConfig.load(path: paths.configFile) { _ in }
        let desktop: LockScreenCheck.Desktop
        if let runningShell {
            let build = GnomeExtensionCheck.fittingBuild(installed, shellVersion: runningShell)
            let enabled = states.isEmpty ? nil : build.flatMap { states[$0.uuid] }.map {
                ($0.state == 1 || $0.state == 8) && $0.error.isEmpty
            } ?? false
            desktop = .gnome(version: runningShell, build: build, enabled: enabled,
                             showInLockScreen: LockScreenCheck.gnomeShowsInLockScreen(environment: environment))
        } else if (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").contains("KDE") {
            desktop = .plasma
        } else {
            desktop = .other
        }
        return LockScreenCheck.evaluate(desktop: desktop, privacy: config.lockScreen, mpris: config.mpris)
    }

    /// `$XDG_DATA_HOME`, where the user's extensions and applets live.
    var dataHome: String {
        environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (environment["HOME"] ?? "") + "/.local/share"
    }

    /// `$XDG_DATA_DIRS`, where the system's live.
    var dataDirs: [String] {
        (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init)
    }

    /// The Plasma applets: which one fits the running Plasma (`PlasmaAppletCheck`). The GNOME
    /// extension has its own check (`GnomeExtensionCheck`).
    func addOnFindings() -> [Finding] {
        PlasmaAppletCheck(environment: environment).findings()
    }

    /// The config file and the kind files, with their problems.
    func fileFindings() -> [Finding] {
        var findings: [Finding] = []
        if let data = FileManager.default.contents(atPath: paths.configFile) {
            let (_, problems) = DaemonConfig.parse(String(decoding: data, as: UTF8.self))
            if problems.isEmpty {
                findings.append(Finding(level: .ok, check: "config", text: paths.configFile))
            }
            for problem in problems {
                findings.append(Finding(level: .broken, check: "config", text: "\(paths.configFile): \(problem)",
                                        fix: "edit that line; man liveactivityd.conf lists the keys"))
            }
        } else {
            findings.append(Finding(level: .ok, check: "config", text: "no \(paths.configFile): the defaults"))
        }
        let catalog = KindCatalog.load(directories: paths.kindDirectories)
        if catalog.names.isEmpty {
            findings.append(Finding(level: .broken, check: "kinds", text: "no kind files in \(paths.kindDirectories.joined(separator: ", "))",
                                    fix: "reinstall: the package or make install puts them in share/liveactivities/kinds"))
        } else {
            findings.append(Finding(level: .ok, check: "kinds", text: catalog.names.joined(separator: ", ")))
        }
        for problem in catalog.problems {
            findings.append(Finding(level: .broken, check: "kinds", text: problem.description,
                                    fix: "fix or remove that file; liveactivity kinds shows the kinds"))
        }
        return findings
    }
}
