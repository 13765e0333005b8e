import Testing
@testable import ActivityModel

/// A tick due for one activity re-renders only the activities whose shown text or whole
/// percent changed, not every activity with a timer (whose raw progress moves continuously).
@Suite(.timeLimit(.minutes(2))) struct TickIsolationTests {
    @Test func aTickForOneFastLeavesTheOthersAlone() throws {
        var registry = shippedRegistry()
        let (early, _) = try registry.start(kind: "fasting", attributes: ["start-time": .double(t0 - 630)], state: [:], now: t0)
        let (late, _) = try registry.start(kind: "fasting", attributes: ["start-time": .double(t0 - 610)], state: [:], now: t0)
        _ = registry.tick(now: t0, timeZoneOffset: 0)
        // 0:10:30 and 0:10:10 elapsed: the first one's minute changes 30 s later, the other's 50 s.
        let first = try #require(registry.nextDeadline(after: t0, timeZoneOffset: 0))
        #expect(first == t0 + 30)
        #expect(registry.tick(now: first, timeZoneOffset: 0) == [.rendered(early)])
        #expect(registry.nextDeadline(after: first, timeZoneOffset: 0) == t0 + 50)
        #expect(registry.tick(now: t0 + 50, timeZoneOffset: 0) == [.rendered(late)])
    }
}
