import DBus
import Foundation
import Testing
import TestSupport

/// `liveactivity doctor` on a private bus, with and without a daemon.
@Suite("liveactivity doctor", .timeLimit(.minutes(5)))
struct DoctorTests {
    func lines(_ output: String, _ check: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.contains("] \(check): ") }
    }

    @Test func withoutADaemonItSaysSoWithAFixAndFails() throws {
        let bus = try PrivateBus()
        let home = try TemporaryDirectory()
        let env = bus.environment(["HOME": home.path, "XDG_CONFIG_HOME": home.subdirectory("config").path,
                                   "XDG_DATA_HOME": home.subdirectory("data").path])
        let result = try runCommand(BuiltProducts.path(of: "liveactivity"), ["doctor"], environment: env)
        #expect(result.status == 1)
        #expect(result.stderr.contains("something is broken"))
        #expect(lines(result.stdout, "daemon") == ["[XX] daemon: not on the bus and not activatable (fix: install the package (or make install), or run liveactivityd)"])
        #expect(lines(result.stdout, "notifications").first?.hasPrefix("[XX] notifications: no notification server") == true)
        #expect(lines(result.stdout, "tray").first?.hasPrefix("[!!] tray: no StatusNotifierWatcher") == true)
        #expect(lines(result.stdout, "push") == ["[--] push: unknown while the daemon is not running"])
        #expect(lines(result.stdout, "GNOME extension") == ["[--] GNOME extension: not installed (optional, for GNOME Shell)"])
        #expect(lines(result.stdout, "Plasma applet") == ["[--] Plasma applet: not installed (optional, for KDE Plasma)"])
    }

    @Test func withADaemonEveryCheckPasses() throws {
        let f = try DaemonFixture(recorderName: "dunst", capabilities: ["actions", "body", "persistence"])
        _ = try f.cli(["list"])
        let result = try f.cli(["doctor"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let daemon = try #require(lines(result.stdout, "daemon").first)
        #expect(daemon.hasPrefix("[ok] daemon: running, version "))
        #expect(daemon.contains("pid \(f.daemon.pid)") && daemon.contains(" since 20"), "\(daemon)")
        #expect(lines(result.stdout, "notifications") == [
            "[ok] notifications: server dunst 1.0 (LiveActivities tests), capabilities: actions body persistence; the daemon uses the profile dunst 1.0"])
        #expect(lines(result.stdout, "push") == ["[--] push: not built"] || lines(result.stdout, "push").first?.hasPrefix("[ok] push:") == true)
        #expect(lines(result.stdout, "kinds") == ["[ok] kinds: fasting, focus, generic"])
        #expect(lines(result.stdout, "config").first?.hasPrefix("[ok] config: no ") == true)
        #expect(lines(result.stdout, "do not disturb") == [
            "[ok] do not disturb: dunst-paused: focus sessions turn on dunst pause (dunstctl is-paused)"])
        #expect(lines(result.stdout, "idle").first?.hasPrefix("[--] idle: no idle monitor on the bus") == true,
                "without Mutter's IdleMonitor or the ScreenSaver, nothing pauses and doctor says so")
    }

    @Test func badConfigAndKindFilesAreBrokenWithTheirLines() throws {
        let f = try DaemonFixture(recorderName: "dunst", config: "tray = off\ncards = maybe\n")
        let kinds = f.daemon.configDirectory.appendingPathComponent("kinds")
        try FileManager.default.createDirectory(at: kinds, withIntermediateDirectories: true)
        try "{ \"name\": ".write(to: kinds.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        let result = try f.cli(["doctor"])
        #expect(result.status == 1)
        let config = lines(result.stdout, "config")
        #expect(config.count == 1 && config[0].hasPrefix("[XX] config: ") && config[0].contains("line 2: cards: expected on or off"),
                "\(config)")
        #expect(lines(result.stdout, "kinds").contains { $0.hasPrefix("[XX] kinds: ") && $0.contains("broken.json") })
    }
}
