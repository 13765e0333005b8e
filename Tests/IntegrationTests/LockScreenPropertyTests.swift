import DBus
import Foundation
import Testing
import TestSupport

/// Issue 26 on the bus: each activity says what a lock screen may show of it (`LockScreen`:
/// the daemon's `lock-screen` setting, `off` where its kind says so) and its kind's display name
/// (`KindName`, what a `private` lock screen shows in place of the title).
@Suite("Lock screen properties", .timeLimit(.minutes(2)))
struct LockScreenPropertyTests {
    private static let secretKind = #"""
    {"name": "secret", "display-name": "Secret", "state": {"title": {"type": "string"}},
     "lock-screen": false, "templates": {"title": "{state.title}"}}
    """#

    private func world(config: String?) throws -> (PrivateBus, DaemonProcess, TestClient) {
        let bus = try PrivateBus()
        let daemon = try DaemonProcess(bus: bus, environment: ["LIVEACTIVITIES_NO_CARDS": "1"], start: false)
        if let config { try daemon.writeConfig(config) }
        let kinds = daemon.configDirectory.appendingPathComponent("kinds")
        try FileManager.default.createDirectory(at: kinds, withIntermediateDirectories: true)
        try Self.secretKind.write(to: kinds.appendingPathComponent("secret.json"), atomically: true, encoding: .utf8)
        try daemon.start()
        return (bus, daemon, try TestClient(bus: bus, recordSignals: false))
    }

    @Test func fullByDefaultWithTheKindsName() throws {
        let (_, daemon, client) = try world(config: nil)
        let focus = try client.start("focus", attributes: ["session-type": .string("Pomodoro")])
        let reply = try client.get(focus)
        #expect(reply["lock-screen"]?.string == "full")
        #expect(reply["kind-name"]?.string == "Focus")
        let path = "/io/github/liveactivities/LiveActivities1/activity/\(focus)"
        let property = try client.property("LockScreen", path: path, interface: "io.github.liveactivities.LiveActivities1.Activity")
        #expect(property.string == "full", "the property and Get agree")
        let secret = try client.start("secret", state: ["title": .string("Surprise party")])
        #expect(try client.get(secret)["lock-screen"]?.string == "off", "the kind's \"lock-screen\": false wins")
        withExtendedLifetime(daemon) {}
    }

    @Test func theSettingIsPublishedAndAKindCanOnlyHideMore() throws {
        let (_, daemon, client) = try world(config: "lock-screen = private\n")
        let fast = try client.start("fasting", attributes: ["protocol": .string("16:8")])
        #expect(try client.get(fast)["lock-screen"]?.string == "private")
        #expect(try client.get(fast)["kind-name"]?.string == "Fasting")
        let secret = try client.start("secret", state: ["title": .string("Surprise party")])
        #expect(try client.get(secret)["lock-screen"]?.string == "off")
        withExtendedLifetime(daemon) {}
    }
}
