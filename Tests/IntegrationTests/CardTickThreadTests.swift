import DBus
import Foundation
import Testing
import TestSupport

/// Issue 29: a steady card's tick costs one hand-off between threads. Its routine replace
/// leaves from the event loop through the routine lane, GDBus's worker writes it and reads the
/// answer, and the card thread (libnotify's) sleeps through it. Before the lane, each tick
/// woke the card thread two or three times: the hand-over, then the server's answer.
@Suite("A card's tick on one thread", .serialized, .timeLimit(.minutes(1)))
struct CardTickThreadTests {
    @Test func aSteadyCardsTicksLeaveTheCardThreadAsleep() throws {
        let bus = try PrivateBus()
        let dunst = try Dunst(bus: bus)
        let daemon = try DaemonProcess(bus: bus)
        let client = try TestClient(bus: bus)
        let id = try client.start("focus", attributes: ["minutes": .uint32(25)])
        let path = "/io/github/liveactivities/LiveActivities1/activity/\(id)"
        func ticks() -> Int { client.propertiesChanged(on: path).filter { $0["CompactTrailing"] != nil }.count }
        // A focus session pauses dunst (Do Not Disturb): the card may wait there, not be displayed.
        func cards() -> Int? {
            guard let shown = try? dunst.displayedCount(),
                  let waiting = try? dunst.control(["count", "waiting"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            else { return nil }
            return Int(waiting).map { $0 + shown }
        }
        #expect(waitUntil(timeout: 10) { cards() == 1 })
        // The first show and its answer are the card thread's: past them, two ticks on.
        #expect(client.waitFor(timeout: 10) { ticks() >= 2 })
        // A window of three ticks in which the card thread slept through. Under load a tick can
        // come late; the next ones are then early for the card's once-a-second slot, and the
        // card thread holds them until the card is back on its ticks: a later window is clean.
        var windows: [String] = []
        var clean = false
        for _ in 0..<6 where !clean {
            let before = try #require(ProcessStats.read(pid: daemon.pid))
            let seen = ticks()
            #expect(client.waitFor(timeout: 10) { ticks() >= seen + 3 }, "three more ticks")
            let after = try #require(ProcessStats.read(pid: daemon.pid))
            let cardThread = (after.threads["unnamed"]?.switches ?? 0) - (before.threads["unnamed"]?.switches ?? 0)
            let worker = (after.threads["gdbus"]?.switches ?? 0) - (before.threads["gdbus"]?.switches ?? 0)
            windows.append("card thread \(cardThread), GDBus's worker \(worker)")
            // GDBus's worker wrote each replace and read its answer: the cards went on.
            clean = cardThread == 0 && worker >= 3
        }
        print("card tick: wake-ups in windows of 3 ticks: \(windows.joined(separator: "; "))")
        // Before the lane each tick woke the card thread twice or more, in every window.
        #expect(clean, "no window of 3 ticks without the card thread waking: \(windows)")
        #expect(cards() == 1, "one card, replaced in place")
        try client.end(id, options: ["dismissal": .string("immediate")])
    }
}
