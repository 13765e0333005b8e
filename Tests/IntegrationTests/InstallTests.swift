import Foundation
import Testing
import TestSupport

/// `make install` puts every file where the session bus and systemd look for it.
@Suite("make install", .timeLimit(.minutes(5)))
struct InstallTests {
    @Test func installsBinariesInterfaceActivationUnitAndKinds() throws {
        let prefix = try TemporaryDirectory(prefix: "liveactivities-prefix")
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
        let result = try runCommand("make", ["-C", checkout.path, "install-files", "PREFIX=\(prefix.path)",
                                             "BIN=\(BuiltProducts.directory.path)"], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let share = prefix.url.appendingPathComponent("share")
        let bus = "io.github.liveactivities.LiveActivities1"
        for path in ["bin/liveactivityd", "bin/liveactivity"] {
            #expect(FileManager.default.isExecutableFile(atPath: prefix.url.appendingPathComponent(path).path), "\(path)")
        }
        let xml = try String(contentsOf: share.appendingPathComponent("dbus-1/interfaces/\(bus).xml"), encoding: .utf8)
        #expect(xml.contains("<interface name=\"\(bus).Activity\">"))
        let service = try String(contentsOf: share.appendingPathComponent("dbus-1/services/\(bus).service"), encoding: .utf8)
        #expect(service.contains("Name=\(bus)"))
        #expect(service.contains("Exec=\(prefix.path)/bin/liveactivityd"))
        #expect(service.contains("SystemdService=liveactivityd.service"))
        let unit = try String(contentsOf: share.appendingPathComponent("systemd/user/liveactivityd.service"), encoding: .utf8)
        #expect(unit.contains("Type=dbus") && unit.contains("BusName=\(bus)"))
        #expect(unit.contains("ExecStart=\(prefix.path)/bin/liveactivityd"))
        for kind in ["generic", "fasting", "focus"] {
            #expect(FileManager.default.fileExists(atPath: share.appendingPathComponent("liveactivities/kinds/\(kind).json").path))
        }
        // The desktop entry the cards carry when no app claims them (`desktop-entry` hint), hidden from menus.
        let entry = try String(contentsOf: share.appendingPathComponent("applications/io.github.liveactivities.desktop"), encoding: .utf8)
        #expect(entry.contains("Name=Live Activities\n") && entry.contains("NoDisplay=true\n"))
        #expect(entry.contains("Exec=\(prefix.path)/bin/liveactivity status\n"), "GLib drops an entry whose Exec is not found")
    }

    @Test func installedDaemonFindsItsKindsOutsideTheCheckout() throws {
        let prefix = try TemporaryDirectory(prefix: "liveactivities-prefix")
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
        _ = try runCommand("make", ["-C", checkout.path, "install-files", "PREFIX=\(prefix.path)",
                                    "BIN=\(BuiltProducts.directory.path)"], timeout: 60)
        let bus = try PrivateBus()
        let home = try TemporaryDirectory()
        let daemon = try ChildProcess(prefix.url.appendingPathComponent("bin/liveactivityd").path, [],
                                      environment: bus.environment(["HOME": home.path, "XDG_STATE_HOME": home.path + "/state",
                                                                    "XDG_CONFIG_HOME": home.path + "/config",
                                                                    "XDG_DATA_DIRS": "/nonexistent", "LIVEACTIVITIES_NO_CARDS": "1"]),
                                      output: .discard)
        defer { daemon.stop() }
        #expect(bus.waitForOwner("io.github.liveactivities.LiveActivities1"))
        let kinds = try runCommand("busctl", ["--address=\(bus.address)", "get-property", "io.github.liveactivities.LiveActivities1",
                                              "/io/github/liveactivities/LiveActivities1", "io.github.liveactivities.LiveActivities1", "Kinds"])
        #expect(kinds.stdout.contains("\"fasting\"") && kinds.stdout.contains("\"focus\"") && kinds.stdout.contains("\"generic\""),
                "\(kinds.stdout) \(kinds.stderr)")
    }
}
