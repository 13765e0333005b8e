import Testing
@testable import ActivityModel

/// Ended activities waiting for their dismissal are capped (issue 14, fault 3): beyond
/// `maxEndedActivities` the oldest ended go at once, reported like any dismissal.
@Suite(.timeLimit(.minutes(2))) struct EndedLimitTests {
    @Test func theOldestEndedAreDismissedBeyondTheLimit() throws {
        var registry = shippedRegistry(limits: Limits(maxEndedActivities: 3))
        for n in 0..<5 {
            _ = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("n\(n)")],
                                   options: StartOptions(id: "a\(n)"), now: t0 + Double(n))
        }
        var dismissed: [String] = []
        for n in 0..<5 {
            let events = try registry.end(id: "a\(n)", now: t0 + 10 + Double(n))
            for case .dismissed(let id) in events { dismissed.append(id.rawValue) }
        }
        #expect(dismissed == ["a0", "a1"], "the two oldest ended ones, in order")
        #expect(registry.activities.map(\.id.rawValue).sorted() == ["a2", "a3", "a4"])
        #expect(registry.activities.allSatisfy { $0.status == .ended })
    }

    @Test func liveActivitiesNeverCountAgainstTheLimit() throws {
        var registry = shippedRegistry(limits: Limits(maxEndedActivities: 1))
        for n in 0..<3 {
            _ = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("n\(n)")],
                                   options: StartOptions(id: "a\(n)"), now: t0)
        }
        let events = try registry.end(id: "a0", now: t0 + 1)
        #expect(!events.contains { if case .dismissed = $0 { return true } else { return false } })
        #expect(registry.liveCount == 2 && registry.activities.count == 3)
    }

    @Test func aRestoredRegistryOverTheLimitIsBroughtUnderItAtTheFirstTick() throws {
        var registry = shippedRegistry(limits: Limits(maxEndedActivities: 10))
        for n in 0..<6 {
            _ = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("n\(n)")],
                                   options: StartOptions(id: "a\(n)"), now: t0)
            _ = try registry.end(id: "a\(n)", now: t0 + Double(n))
        }
        var restored = ActivityRegistry(catalog: shippedCatalog, limits: Limits(maxEndedActivities: 2), snapshot: registry.snapshot)
        let events = restored.tick(now: t0 + 60, timeZoneOffset: 0)
        let dismissed = events.compactMap { if case .dismissed(let id) = $0 { return id.rawValue } else { return nil } }
        #expect(dismissed == ["a0", "a1", "a2", "a3"])
        #expect(restored.activities.map(\.id.rawValue).sorted() == ["a4", "a5"])
    }
}
