import DBus
import Foundation
import Testing
import TestSupport

/// The card on real dunst (on Xvfb): what a user of dunst sees, read back with dunstctl.
@Suite("Cards on real dunst", .serialized, .timeLimit(.minutes(5)))
struct DunstTests {
    /// A bus with dunst and the daemon on it.
    final class World {
        let bus: PrivateBus
        let dunst: Dunst
        let daemon: DaemonProcess
        let client: TestClient

        /// `config`: the daemon's liveactivityd.conf, written before it starts.
        init(config: String? = nil) throws {
            bus = try PrivateBus()
            dunst = try Dunst(bus: bus)
            daemon = try DaemonProcess(bus: bus, start: false)
            if let config { try daemon.writeConfig(config) }
            try daemon.start()
            client = try TestClient(bus: bus)
        }

        /// dunst's history as JSON text (every notification it has shown).
        func history() throws -> String { try dunst.control(["history"]).stdout }
    }

    @Test func oneCardThroughUpdatesThenGoneAtEnd() throws {
        let w = try World(config: "min-notify-interval = 0.1\n")
        let c = w.client
        let id = try c.start("generic", state: ["title": .string("Deploy"), "body": .string("step 1"), "progress": .double(0.1)])
        #expect(waitUntil(timeout: 5) { (try? w.dunst.displayedCount()) == 1 })
        for step in 2...5 {
            try c.update(id, ["body": .string("step \(step)"), "progress": .double(Double(step) / 10)])
        }
        // The barrier: a new card waits for no other and is handed over after the updates, so
        // once it shows, every update has been sent (or waits for its 0.1 s slot).
        let probe = try c.start("generic", state: ["title": .string("Probe")], options: ["relevance": .double(-1)])
        #expect(waitUntil(timeout: 5) { (try? w.dunst.displayedCount()) == 2 }, "the probe's card beside still one card")
        #expect(try w.dunst.control(["count", "history"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0",
                "no card was replaced by a second one")
        try c.end(id, options: ["dismissal": .string("immediate")])
        #expect(waitUntil(timeout: 5) { (try? w.dunst.displayedCount()) == 1 }, "the card disappears at End (the probe stays)")
        _ = probe
    }

    @Test func latestTextIsOnScreen() throws {
        let w = try World(config: "min-notify-interval = 0.1\n")
        let c = w.client
        let id = try c.start("generic", state: ["title": .string("Counter"), "body": .string("zero")])
        #expect(waitUntil(timeout: 5) { (try? w.dunst.displayedCount()) == 1 })
        try c.update(id, ["body": .string("the final text")])
        // The card is replaced at most every 0.1 s here, and dunst shows no event for it. Not an
        // absence proof: too short a wait can only fail the test (the old text in the history).
        Thread.sleep(forTimeInterval: 0.5)
        // Close it to history, where dunstctl can read its text.
        _ = try w.dunst.control(["close-all"])
        #expect(waitUntil(timeout: 4) { (try? w.history())?.contains("the final text") == true })
        #expect(try w.history().contains("zero") == false, "the old text was replaced, not kept beside")
    }

    @Test func stoppedServerNeverDelaysReplies() throws {
        let w = try World()
        let c = w.client
        let id = try c.start("generic", state: ["title": .string("frozen")])
        #expect(waitUntil(timeout: 5) { (try? w.dunst.displayedCount()) == 1 })
        w.dunst.process.send(SIGSTOP)
        defer { w.dunst.process.send(SIGCONT) }
        let started = Date()
        for i in 0..<20 { try c.update(id, ["body": .string("update \(i)")]) }
        let other = try c.start("generic", state: ["title": .string("second")])
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < 1.0, "21 calls took \(elapsed) s with the server stopped")
        w.dunst.process.send(SIGCONT)
        #expect(waitUntil(timeout: 8) { (try? w.dunst.displayedCount()) == 2 }, "the cards catch up")
        _ = other
    }
}
