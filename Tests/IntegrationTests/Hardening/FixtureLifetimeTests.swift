import DBus
import Foundation
import Testing
import TestSupport

/// The crash of issue 20: a fake notification server freed while the daemon still sends it
/// cards. Its Notify handler ran on the server thread and read an owner that was being
/// destroyed ("Attempted to read an unowned reference"), which killed the whole test process.
/// Each lifetime starts cards, updates them inside their slot so that Notify calls are on the
/// way, then drops the recorder while the daemon is alive, as a fixture going out of scope did.
/// `LIVEACTIVITIES_LIFETIMES=200 scripts/test --filter FixtureLifetimeTests` is the proof loop
/// (the flood runs ten times as many); the suite runs 5.
@Suite("Fake servers freed while the daemon talks to them", .timeLimit(.minutes(30)))
struct FixtureLifetimeTests {
    static let lifetimes = Int(ProcessInfo.processInfo.environment["LIVEACTIVITIES_LIFETIMES"] ?? "") ?? 5
    static let cards = 8

    @Test func recorderReleasedWhileTheDaemonSendsCards() throws {
        for lifetime in 0..<Self.lifetimes {
            let bus = try PrivateBus()
            var recorder: RecordingNotificationServer? = try RecordingNotificationServer(bus: bus)
            let daemon = try DaemonProcess(bus: bus, start: false)
            try daemon.writeConfig("min-notify-interval = 0.1\n")
            try daemon.start()
            let client = try TestClient(bus: bus, recordSignals: false)
            let ids = try (0..<Self.cards).map { try client.start("generic", state: ["title": .string("card \($0)")]) }
            #expect(waitUntil(timeout: 10) { (recorder?.calls.count ?? 0) >= Self.cards })
            // Updates inside each card's slot until replacements are arriving: the daemon sends
            // them on its own schedule, so some are in flight when the recorder goes.
            var round = 0
            while (recorder?.calls.count ?? 0) < Self.cards * 3 && round < 400 {
                round += 1
                for id in ids { try client.update(id, ["progress": .double(Double(round % 100) / 100)]) }
            }
            for id in ids { try client.update(id, ["progress": .double(1)]) }
            recorder = nil
            #expect(daemon.isRunning, "lifetime \(lifetime): the daemon outlives its notification server")
            // The daemon notices the server left: its reply orders after every Notify it sent.
            #expect(waitUntil(timeout: 10) { (try? client.property("NotificationServer").string) == "" },
                    "lifetime \(lifetime)")
        }
    }

    @Test func fixtureReleasedInsideACardSlot() throws {
        for lifetime in 0..<Self.lifetimes {
            var fixture: DaemonFixture? = try DaemonFixture(config: "min-notify-interval = 0.1\n", recordSignals: false)
            let client = try #require(fixture?.client)
            let id = try client.start("generic", state: ["title": .string("slot \(lifetime)")])
            #expect(fixture?.waitForNotifies(1) == true)
            for step in 1...20 { try client.update(id, ["progress": .double(Double(step) / 20)]) }
            fixture = nil
        }
    }

    /// The same race without the daemon's card slot in the way: Notify calls pipelined from
    /// a raw connection keep the recorder's thread inside its handler when the recorder goes.
    @Test func recorderReleasedUnderAFloodOfNotify() throws {
        for _ in 0..<Self.lifetimes * 10 {
            let bus = try PrivateBus()
            var recorder: RecordingNotificationServer? = try RecordingNotificationServer(bus: bus)
            let caller = try PipelinedCaller(bus: bus)
            for index in 0..<300 {
                let message = try DBusMessage.methodCall(destination: "org.freedesktop.Notifications",
                                                         path: "/org/freedesktop/Notifications",
                                                         interface: "org.freedesktop.Notifications", member: "Notify")
                try message.append([.string("flood"), .uint32(0), .string(""), .string("card \(index)"), .string(""),
                                    .array(elementSignature: "s", []), .vardict([:]), .int32(0)])
                caller.connection.send(message)
            }
            caller.connection.flush()
            #expect(waitUntil(timeout: 10) { (recorder?.calls.count ?? 0) >= 10 })
            recorder = nil
            #expect(caller.connection.isConnected, "the bus and the caller outlive the recorder's release")
        }
    }
}
