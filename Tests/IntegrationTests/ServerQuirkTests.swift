import DBus
import Foundation
import Testing
import TestSupport

/// Fixes found by the desktop matrix (scripts/desktop-matrix), pinned on a recording server.
@Suite("Server quirks found on real desktops", .timeLimit(.minutes(5)))
struct ServerQuirkTests {
    @Test func notificationDaemonGetsOneCardAtATimeAndAnAlertTakesThePlace() throws {
        let f = try DaemonFixture(recorderName: "Notification Daemon", config: "min-notify-interval = 0.1\n")
        let c = f.client
        let first = try c.start("generic", state: ["title": .string("First"), "body": .string("one")])
        let second = try c.start("generic", state: ["title": .string("Second")])
        #expect(f.waitForNotifies(1))
        // The barrier: the card pipeline keeps its order, so once an update of First that was
        // asked for after Second's Start arrives, Second was either sent or kept waiting.
        try c.update(first, ["body": .string("two")])
        #expect(c.waitFor(timeout: 5) { f.recorder?.calls.last?.body.contains("two") == true })
        #expect(f.recorder?.calls.map(\.summary) == ["First", "First"], "one card on the server, the other waits")

        try c.update(second, [:], options: ["alert-title": .string("Second needs you")])
        #expect(c.waitFor(timeout: 5) { f.recorder?.calls.last?.summary == "Second needs you" })
        let calls = f.recorder?.calls ?? []
        let firstID = calls[0].assignedID
        #expect(calls.contains { $0.assignedID == firstID && $0.timeout == 1 },
                "the first card is expired (notification-daemon ignores CloseNotification on screen)")
        #expect(f.recorder?.closed.contains(firstID) == true)

        try c.end(second, options: ["dismissal": .string("immediate")])
        #expect(c.waitFor(timeout: 5) { f.recorder?.calls.last?.summary == "First" && f.recorder?.calls.last?.replacesID == 0 },
                "the waiting card takes the freed place")
        _ = first
    }

    @Test func anAlertStaysOnATickingCard() throws {
        let f = try DaemonFixture(recorderName: "dunst")
        let c = f.client
        let now = Int64(Date().timeIntervalSince1970)
        let id = try c.start("generic", attributes: ["timer-start": .int64(now), "timer-end": .int64(now + 600)],
                             state: ["title": .string("Tea")])
        #expect(f.waitForNotifies(1))
        try c.update(id, [:], options: ["alert-title": .string("Steeped"), "alert-body": .string("Take the bag out")])
        #expect(c.waitFor(timeout: 5) { f.recorder?.calls.contains { $0.summary == "Steeped" } == true })
        let count = f.recorder?.calls.count ?? 0
        #expect(c.waitFor(timeout: 4) { (f.recorder?.calls.count ?? 0) >= count + 2 }, "the timer keeps ticking")
        let last = try #require(f.recorder?.calls.last)
        #expect(last.summary == "Steeped", "a tick must not wipe the alert out")
        #expect(last.body.hasPrefix("Take the bag out"))
        #expect(last.hints["sound-name"] == nil, "the ticks after the alert are silent")

        try c.end(id)
        #expect(c.waitFor(timeout: 5) { f.recorder?.calls.last?.summary == "Tea" }, "the final card shows how it ended")
    }
}
