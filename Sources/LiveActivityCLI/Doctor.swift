import ActivityModel
import DBus
import Foundation
import ActivityFiles
import LiveActivitiesContract

/// `liveactivity doctor`: why nothing shows. One line per check (the daemon, the
/// notification server, the tray watcher, the GNOME extension and Plasma applet, the config
/// and kind files, push), each problem with a fix; broken checks make the exit status 1.
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

    static let gnomeExtension = "liveactivities@liveactivities.github.io"

    let environment: [String: String]
    let paths: DaemonPaths

    func run() -> [Finding] {
        var findings: [Finding] = []
        let address = environment["DBUS_SESSION_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
        do throws(DBusError) {
            let connection: DBusConnection
            if let address { connection = try DBusConnection(address: address) } else { connection = try DBusConnection.sessionBus() }
            findings += BusChecks(probes: DoctorProbes(connection: connection)).run()
        } catch {
            findings.append(Finding(level: .broken, check: "session bus", text: "cannot connect: \(error.message)",
                                    fix: "log in to a desktop session, or export DBUS_SESSION_BUS_ADDRESS"))
        }
        findings += addOnFindings() + fileFindings()
        return findings
    }

    /// The GNOME Shell extension and the Plasma applet: installed or not (either is optional).
    func addOnFindings() -> [Finding] {
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (environment["HOME"] ?? "") + "/.local/share"
        let dataDirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init)
        func installed(_ relative: String) -> String? {
            ([dataHome] + dataDirs).map { $0 + "/" + relative }.first { FileManager.default.fileExists(atPath: $0) }
        }
        var findings: [Finding] = []
        if let path = installed("gnome-shell/extensions/\(Self.gnomeExtension)") {
            findings.append(Finding(level: .ok, check: "GNOME extension", text: "installed in \(path)",
                                    fix: "if the top bar shows nothing: gnome-extensions enable \(Self.gnomeExtension)"))
        } else {
            findings.append(Finding(level: .info, check: "GNOME extension", text: "not installed (optional, for GNOME Shell)"))
        }
        findings += PlasmaAppletCheck(environment: environment).findings()
        return findings
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
