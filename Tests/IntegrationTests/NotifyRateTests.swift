import DBus
import Foundation
import Testing
import TestSupport

/// A card whose texts change only by the minute causes at most one Notify a minute.
/// Slow (a minute of watching); it runs in parallel with the other suites.
@Suite("Notify rate of minutes-format activities")
struct NotifyRateTests {
    @Test(.timeLimit(.minutes(2)))
    func fastingCardIsReplacedAtMostOncePerMinute() throws {
        let f = try DaemonFixture(recorderName: "dunst")
        let c = f.client
        // 100 s into a 16-hour fast: the shown minute changes at 120 s, the whole percent only at 576 s.
        let id = try c.start("fasting", attributes: ["fasting-hours": .uint32(16), "start-time": .int64(Clock.now - 100)])
        #expect(f.waitForNotifies(1))
        let first = try #require(f.recorder?.calls.first)
        c.idle(62)
        let more = f.notifies(forNotification: first.assignedID).dropFirst()
        #expect(more.count <= 1, "\(more.count) more Notify calls in 62 s: \(more.map(\.body))")
        #expect(more.count == 1, "the minute shown did change once (0:01 to 0:02)")
        for call in more {
            #expect(call.isRoutine, "a minute tick is routine: \(call.hints)")
            #expect(call.hints["urgency"] == .byte(1), "dunst's profile sends routine updates at normal urgency")
            #expect(call.replacesID == first.assignedID)
        }
        #expect(try c.get(id)["status"]?.string == "active")
    }
}
