import DBus
import Foundation
import Testing
import TestSupport

/// The daemon (not only its presenter) facing a real notification server that restarts,
/// hangs, loses a card to the user, or is not there yet.
@Suite("Daemon and a misbehaving notification server", .serialized, .timeLimit(.minutes(5)))
struct NotificationServerTests {
    /// Starts `count` generic activities titled "card 0", "card 1"…
    private func startCards(_ client: TestClient, count: Int) throws -> [String] {
        try (0..<count).map { try client.start("generic", state: ["title": .string("card \($0)"), "body": .string("start")]) }
    }

    @Test func restartedServerGetsEveryLiveCardBackWithinASecond() throws {
        let bus = try PrivateBus()
        let first = try Dunst(bus: bus)
        let daemon = try DaemonProcess(bus: bus, start: false)
        try daemon.writeConfig("min-notify-interval = 0.1\n")  // the slot is not the subject: a short one
        try daemon.start()
        let client = try TestClient(bus: bus)
        _ = try startCards(client, count: 3)
        #expect(waitUntil(timeout: 5) { (try? first.displayedCount()) == 3 })

        first.stop()
        #expect(waitUntil(timeout: 5) { (try? client.property("NotificationServer").string) == "" },
                "the daemon notices the server is gone")
        let second = try Dunst(bus: bus)
        defer { second.stop() }
        let appeared = Date()
        #expect(waitUntil(timeout: 1) { (try? second.displayedCount()) == 3 },
                "every live card is back within a second (\(Date().timeIntervalSince(appeared)) s)")
        #expect(try client.property("NotificationServer").string?.hasPrefix("dunst") == true)
        #expect(daemon.isRunning)
    }

    @Test func stoppedServerNeverSlowsRepliesAndCardsCatchUp() throws {
        let bus = try PrivateBus()
        let dunst = try Dunst(bus: bus)
        let daemon = try DaemonProcess(bus: bus)
        let client = try TestClient(bus: bus)
        let ids = try startCards(client, count: 3)
        #expect(waitUntil(timeout: 5) { (try? dunst.displayedCount()) == 3 })

        dunst.process.send(SIGSTOP)
        defer { dunst.process.send(SIGCONT) }
        var slowest = 0.0
        var calls = 0
        // Three seconds stopped: a call that waited for the server would take the whole window
        // (or the 25 s bus timeout); it was 10 s until issue 20, for the same proof.
        let until = Date().addingTimeInterval(3)
        var round = 0
        while Date() < until {
            round += 1
            for id in ids {
                let started = Date()
                try client.update(id, ["body": .string("round \(round)")])
                slowest = max(slowest, Date().timeIntervalSince(started))
                calls += 1
            }
            Thread.sleep(forTimeInterval: 0.1)  // pacing, not a wait: rounds of updates spread over the window
        }
        let started = Date()
        let extra = try client.start("generic", state: ["title": .string("started while stopped")])
        try client.end(ids[2], options: ["dismissal": .string("immediate")])
        slowest = max(slowest, Date().timeIntervalSince(started) / 2)
        // A call that waited for the stopped server would take the bus timeout (25 s). 0.5 s
        // leaves room for scheduling on a loaded machine: 0.1 s failed 4 of 7 full runs at a
        // load average of 13 to 23, when this suite shared its shard with LoadTests.
        #expect(slowest < 0.5, "the slowest of \(calls + 2) calls took \(slowest) s while the server was stopped")

        dunst.process.send(SIGCONT)
        #expect(waitUntil(timeout: 8) { (try? dunst.displayedCount()) == 3 }, "cards 0, 1 and the new one; card 2 closed")
        // The latest update waits for its card's once-a-second slot, and dunst shows no event
        // for a replaced card. Not an absence proof: too short a wait can only fail the test.
        Thread.sleep(forTimeInterval: 1.5)
        _ = try dunst.control(["close-all"])
        let history = try dunst.control(["history"]).stdout
        #expect(history.contains("round \(round)"), "the cards show the latest update")
        #expect(history.contains("started while stopped"))
        #expect(try client.get(extra)["status"]?.string == "active")
        #expect(daemon.isRunning)
    }

    @Test func userClosingTheCardLeavesTheActivityLive() throws {
        let bus = try PrivateBus()
        let dunst = try Dunst(bus: bus)
        let daemon = try DaemonProcess(bus: bus)
        let client = try TestClient(bus: bus)
        let id = try client.start("generic", state: ["title": .string("Closable"), "body": .string("one")])
        #expect(waitUntil(timeout: 5) { (try? dunst.displayedCount()) == 1 })

        _ = try dunst.control(["close"])
        #expect(waitUntil(timeout: 5) { (try? dunst.displayedCount()) == 0 })
        // The user's close reaches the daemon as dunst's signal, with no reply to order after,
        // and the next update must find the card's slot open: a wait, then a probe below.
        // Not an absence proof: if the close were not seen yet, the card would come back and fail.
        Thread.sleep(forTimeInterval: 1.2)
        try client.update(id, ["body": .string("two")])
        // The barrier: a new activity's card waits for no other and is handed over after the
        // update, so once it shows, the update has been handled.
        let probe = try client.start("generic", state: ["title": .string("Probe")], options: ["relevance": .double(-1)])
        #expect(waitUntil(timeout: 5) { (try? dunst.displayedCount()) == 1 }, "the probe's card")
        #expect(try client.get(id)["status"]?.string == "active", "the activity goes on")
        #expect(try client.list().map { $0[0] }.sorted() == [id, probe].sorted())
        #expect(try client.property("CompactText").string?.contains("Closable") == true, "the compact view still shows it")
        #expect(try dunst.displayedCount() == 1, "a routine update does not bring the closed card back (only the probe shows)")

        try client.update(id, ["body": .string("three")], options: ["alert-title": .string("Look")])
        #expect(waitUntil(timeout: 5) { (try? dunst.displayedCount()) == 2 }, "the next alert brings it back")
        #expect(daemon.isRunning)
    }

    @Test func serverAbsentAtStartThenCardsShowOnceItAppears() throws {
        let bus = try PrivateBus()
        let daemon = try DaemonProcess(bus: bus)
        let client = try TestClient(bus: bus)
        let started = Date()
        _ = try startCards(client, count: 2)
        #expect(Date().timeIntervalSince(started) < 0.5, "serving does not wait for a server")
        #expect(try client.property("NotificationServer").string == "")

        let dunst = try Dunst(bus: bus)
        defer { dunst.stop() }
        #expect(waitUntil(timeout: 3) { (try? dunst.displayedCount()) == 2 }, "both cards appear")
        #expect(try client.property("NotificationServer").string?.hasPrefix("dunst") == true)
        #expect(daemon.isRunning)
    }
}
