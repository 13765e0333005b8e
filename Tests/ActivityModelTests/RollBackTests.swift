import Testing
@testable import ActivityModel

/// A change the daemon cannot persist is taken back without a copy of the registry: what the
/// calls of an open change replaced is put back, settings included (issue 19 point 1).
@Suite(.timeLimit(.minutes(2))) struct RollBackTests {
    @Test func rollBackPutsBackEveryActivityAndSetting() throws {
        var registry = shippedRegistry()
        let (kept, _) = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("Kept")],
                                           options: .init(), now: 1000)
        let before = registry.snapshot

        _ = registry.beginChange()
        _ = try registry.update(id: kept.rawValue, state: ["title": .string("Changed")], options: .init(), now: 1001)
        _ = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("New")], options: .init(), now: 1001)
        registry.enabled = false
        #expect(registry.snapshot != before, "the change is made")
        registry.rollBack()

        #expect(registry.snapshot == before, "every activity, Enabled and the id generator as before")
        #expect(try registry.render(id: kept.rawValue, now: 1002, timeZoneOffset: 0).title == "Kept", "renders the old state")
    }

    @Test func endChangeKeepsTheChange() throws {
        var registry = shippedRegistry()
        _ = registry.beginChange()
        let (id, _) = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("New")],
                                         options: .init(), now: 1000)
        registry.endChange()
        registry.rollBack()
        #expect(registry.activity(id.rawValue) != nil, "a rollback after the change ended undoes nothing")
    }
}
