import ActivityModel
import DBus
import Testing
import TestSupport
@testable import LiveActivitiesService

/// The timeline of updates (issue 21, point 2): Update with `at` holds the content until then,
/// listed in `scheduled-updates` earliest first, at most 16, cancellable, persisted, and
/// applied by itself at its moment as a normal Update. Moments are reached with the manual clock.
@Suite(.timeLimit(.minutes(5))) struct ScheduledUpdateTests {
    static let t0 = ServiceWorld.t0

    func scheduledTimes(_ client: TestClient, _ id: String) throws -> [Int64] {
        guard case .array(_, let rows)? = try client.get(id)["scheduled-updates"] else { return [] }
        return rows.compactMap { row in
            guard case .structure(let fields) = row else { return nil }
            return fields.first?.integer
        }
    }

    func title(_ text: String) -> [String: DBusValue] { ["title": .string(text)] }

    @Test func scheduledUpdatesApplyInTimeOrderAtTheirMoment() throws {
        let world = try ServiceWorld()
        let c = world.client
        let id = try c.start("generic", state: title("Build"))
        try c.update(id, title("Step 2"), options: ["at": .int64(Int64(Self.t0) + 60)])
        try c.update(id, title("Step 1"), options: ["at": .int64(Int64(Self.t0) + 30), "alert-title": .string("Step 1")])
        #expect(try scheduledTimes(c, id) == [Int64(Self.t0) + 30, Int64(Self.t0) + 60], "listed earliest first")
        #expect(try c.get(id)["title"]?.string == "Build", "nothing applies before its time")

        world.advance(to: Self.t0 + 29.9)
        #expect(try c.get(id)["title"]?.string == "Build")
        c.forgetSignals()
        world.advance(to: Self.t0 + 30)
        #expect(try c.get(id)["title"]?.string == "Step 1")
        #expect(c.received("ActivityUpdated").contains { $0 == [.string(id)] }, "applied as a normal Update")
        #expect(world.sink?.cards(id).last?.alert != nil, "its alert options pop the card up")
        #expect(try scheduledTimes(c, id) == [Int64(Self.t0) + 60])
        world.advance(to: Self.t0 + 60)
        #expect(try c.get(id)["title"]?.string == "Step 2")
        #expect(try scheduledTimes(c, id).isEmpty)
    }

    @Test func sixteenAtMostThenLimitExceededAndCancelByTimeOrAll() throws {
        let world = try ServiceWorld()
        let c = world.client
        let id = try c.start("generic", state: title("Build"))
        for step in 1...16 {
            try c.update(id, title("Step \(step)"), options: ["at": .int64(Int64(Self.t0) + Int64(step) * 60)])
        }
        let more = c.error { try c.update(id, title("Step 17"), options: ["at": .int64(Int64(Self.t0) + 17 * 60)]) }
        #expect(more?.name == BusNames.errorPrefix + "LimitExceeded", "\(String(describing: more))")
        #expect(try scheduledTimes(c, id).count == 16, "the refused one changed nothing")

        try c.update(id, [:], options: ["cancel-at": .int64(Int64(Self.t0) + 120)])
        #expect(try !scheduledTimes(c, id).contains(Int64(Self.t0) + 120))
        #expect(try scheduledTimes(c, id).count == 15)
        let missing = c.error { try c.update(id, [:], options: ["cancel-at": .int64(Int64(Self.t0) + 120)]) }
        #expect(missing?.name == BusNames.errorPrefix + "NotFound")
        let mixed = c.error { try c.update(id, title("x"), options: ["cancel-all": .boolean(true)]) }
        #expect(mixed?.name == "org.freedesktop.DBus.Error.InvalidArgs", "cancelling takes no state")
        let tooFar = c.error { try c.update(id, title("x"), options: ["at": .int64(Int64(Self.t0) + 400 * 86_400)]) }
        #expect(tooFar?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        let badState = c.error { try c.update(id, ["title": .int64(3)], options: ["at": .int64(Int64(Self.t0) + 10)]) }
        #expect(badState != nil, "the content is checked when it is scheduled")

        try c.update(id, [:], options: ["cancel-all": .boolean(true)])
        #expect(try scheduledTimes(c, id).isEmpty)
        world.advance(to: Self.t0 + 20 * 60)
        #expect(try c.get(id)["title"]?.string == "Build", "cancelled updates never apply")
    }

    @Test func aPastAtAppliesNowAndEndDropsTheTimeline() throws {
        let world = try ServiceWorld()
        let c = world.client
        let id = try c.start("generic", state: title("Build"))
        try c.update(id, title("Now"), options: ["at": .int64(Int64(Self.t0) - 5)])
        #expect(try c.get(id)["title"]?.string == "Now")
        #expect(try scheduledTimes(c, id).isEmpty)
        try c.update(id, title("Later"), options: ["at": .int64(Int64(Self.t0) + 60)])
        try c.end(id)
        #expect(try scheduledTimes(c, id).isEmpty, "an ended activity holds no scheduled updates")
        world.advance(to: Self.t0 + 120)
        #expect(try c.get(id)["title"]?.string == "Now")
    }

    @Test func scheduledUpdatesSurviveADaemonKillAndApplyWhenDue() throws {
        let home = try TemporaryDirectory(prefix: "scheduled-updates-restart")
        var first: ServiceWorld? = try ServiceWorld(home: home)
        let firstClient = try #require(first?.client)
        let id = try firstClient.start("generic", state: title("Build"))
        try firstClient.update(id, title("Tests"), options: ["at": .int64(Int64(Self.t0) + 60)])
        try firstClient.update(id, title("Deploy"), options: ["at": .int64(Int64(Self.t0) + 3_600)])
        first = nil  // gone without a clean exit

        let second = try ServiceWorld(at: Self.t0 + 120, home: home)
        second.advance(by: 0.1)
        #expect(try second.client.get(id)["title"]?.string == "Tests", "due while down: applied at start-up")
        #expect(try scheduledTimes(second.client, id) == [Int64(Self.t0) + 3_600], "the rest is still scheduled")
        second.advance(to: Self.t0 + 3_600)
        #expect(try second.client.get(id)["title"]?.string == "Deploy")
    }

    @Test func aPendingActivityAppliesUpdatesDueBeforeItsStartWhenItStarts() throws {
        let world = try ServiceWorld()
        let c = world.client
        let id = try c.start("generic", state: title("Later"), options: ["start-at": .int64(Int64(Self.t0) + 600)])
        try c.update(id, title("Rehearsal"), options: ["at": .int64(Int64(Self.t0) + 60)])
        let plain = c.error { try c.update(id, title("Now")) }
        #expect(plain?.name == BusNames.errorPrefix + "NotActive", "a plain Update waits for the start")
        world.advance(to: Self.t0 + 300)
        #expect(try c.get(id)["status"]?.string == "pending")
        #expect(try c.get(id)["title"]?.string == "Later")
        world.advance(to: Self.t0 + 600)
        #expect(try c.get(id)["status"]?.string == "active")
        #expect(try c.get(id)["title"]?.string == "Rehearsal")
    }
}
