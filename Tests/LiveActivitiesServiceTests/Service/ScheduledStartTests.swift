import ActivityModel
import DBus
import Testing
import TestSupport
@testable import LiveActivitiesService

/// Scheduled starts (issue 21, point 2): an activity started with a future `start-at` waits as
/// `pending` (listed, on the bus, no card, not in the compact view) and becomes active by
/// itself at that moment, with an alert, also across a restart and a wall-clock step. Every
/// moment is reached with the manual clock.
@Suite(.timeLimit(.minutes(5))) struct ScheduledStartTests {
    static let t0 = ServiceWorld.t0

    func startPomodoro(_ world: ServiceWorld, at time: Double) throws -> String {
        try world.client.start("focus", attributes: ["session-type": .string("Pomodoro")],
                               options: ["start-at": .int64(Int64(time))])
    }

    @Test func aPendingActivityHasNoCardUntilItsTimeThenStartsWithAnAlert() throws {
        let world = try ServiceWorld()
        let sink = try #require(world.sink)
        let c = world.client
        let id = try startPomodoro(world, at: Self.t0 + 600)
        world.advance(by: 1)
        #expect(try c.get(id)["status"]?.string == "pending")
        #expect(try c.list().contains { $0.first == id && $0[2] == "pending" })
        #expect(try c.property("ActiveCount") == .uint32(0))
        #expect(try c.property("CompactText") == .string(""), "no place in the compact view")
        #expect(sink.cards(id).isEmpty, "no card while pending")
        #expect(world.clock.pendingWakeups.contains(Self.t0 + 600), "the timer is armed at the start time")

        world.advance(to: Self.t0 + 599.9)
        #expect(try c.get(id)["status"]?.string == "pending", "nothing starts before its time")
        #expect(sink.cards(id).isEmpty)

        world.advance(to: Self.t0 + 600)
        let started = try c.get(id)
        #expect(started["status"]?.string == "active")
        #expect(started["compact-trailing"]?.string == "25:00", "the timer is anchored at the start, not at the call")
        #expect(started["started-at"] == .int64(Int64(Self.t0) + 600))
        let cards = sink.cards(id)
        #expect(cards.count == 1 && cards.first?.alert != nil, "the card pops up with an alert: \(cards)")
        #expect(c.received("StatusChanged").contains { $0 == [.string(id), .string("active")] })
        #expect(try c.property("ActiveCount") == .uint32(1))
    }

    @Test func aStartDueWhileTheDaemonWasDownHappensAtStartUp() throws {
        let home = try TemporaryDirectory(prefix: "scheduled-restart")
        var first: ServiceWorld? = try ServiceWorld(home: home)
        let id = try startPomodoro(try #require(first), at: Self.t0 + 600)
        first = nil  // gone without a clean exit

        let early = try ServiceWorld(at: Self.t0 + 300, home: home)
        early.advance(by: 0.1)
        #expect(try early.client.get(id)["status"]?.string == "pending", "restored as pending before its time")
        #expect(early.sink?.cards(id).isEmpty == true)

        let late = try ServiceWorld(at: Self.t0 + 900, home: home)
        late.advance(by: 0.1)
        let restored = try late.client.get(id)
        #expect(restored["status"]?.string == "active", "due while down: active at start-up")
        #expect(restored["compact-trailing"]?.string == "25:00", "anchored when it became active, so the session runs in full")
        #expect(late.sink?.cards(id).first?.alert != nil, "with its alert")
    }

    @Test func aWallClockStepPastTheStartStartsItAndABackStepKeepsItWaiting() throws {
        let world = try ServiceWorld()
        let id = try startPomodoro(world, at: Self.t0 + 600)
        world.advance(by: 1)
        let clock = world.clock
        world.onService { _ in clock.step(by: -3_600) }
        world.onService { $0.wallClockStepped() }
        world.sync()
        #expect(try world.client.get(id)["status"]?.string == "pending", "a given start time stays where it is")
        world.onService { _ in clock.step(by: 4_800) }
        world.onService { $0.wallClockStepped() }
        world.sync()
        #expect(try world.client.get(id)["status"]?.string == "active", "a step past the start starts it at once")
        #expect(world.sink?.cards(id).count == 1)
    }

    /// A suspend over the start: the wall clock jumps (the monotonic one does not), and the
    /// realtime timer armed for the start fires late, at wake-up; the session then runs in full.
    @Test func aSuspendOverTheStartStartsItAtWakeUpInFull() throws {
        let world = try ServiceWorld()
        let id = try startPomodoro(world, at: Self.t0 + 600)
        world.advance(by: 1)
        let clock = world.clock
        world.onService { _ in clock.step(by: 3_000) }  // asleep from t0+1 to t0+3001
        world.advance(by: 0.01)  // the armed wake-up, already due, runs now
        let woken = try world.client.get(id)
        #expect(woken["status"]?.string == "active")
        #expect(woken["started-at"] == .int64(Int64(Self.t0) + 3_001), "started at wake-up")
        #expect(woken["compact-trailing"]?.string == "25:00")
        #expect(world.sink?.cards(id).first?.alert != nil, "with its alert")
    }

    @Test func endCancelsAPendingActivity() throws {
        let world = try ServiceWorld()
        let id = try startPomodoro(world, at: Self.t0 + 600)
        try world.client.end(id)
        world.sync()
        #expect(try world.client.list().isEmpty, "a cancelled pending activity leaves at once")
        #expect(world.client.received("StatusChanged").map { $0.last } == [.string("pending"), .string("ended"), .string("dismissed")])
        world.advance(to: Self.t0 + 700)
        #expect(world.sink?.cards(id).isEmpty == true, "it never shows a card")
        #expect(world.clock.pendingWakeups.allSatisfy { $0 < Self.t0 + 600 }, "nothing stays armed for it")
    }

    @Test func startAtIsValidatedAndPendingActivitiesTakeAPlace() throws {
        let world = try ServiceWorld(limits: Limits(maxLiveActivities: 2))
        let c = world.client
        let tooFar = c.error { _ = try startPomodoro(world, at: Self.t0 + 367 * 86_400) }
        #expect(tooFar?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(tooFar?.message.contains("366 days") == true, "\(String(describing: tooFar))")
        let notATime = c.error { _ = try c.start("focus", options: ["start-at": .string("14:00")]) }
        #expect(notATime?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(try c.list().isEmpty, "refused starts change nothing")

        let past = try startPomodoro(world, at: Self.t0 - 60)
        #expect(try c.get(past)["status"]?.string == "active", "a past start-at starts now")
        _ = try startPomodoro(world, at: Self.t0 + 600)
        let full = c.error { _ = try c.start("generic", state: ["title": .string("third")]) }
        #expect(full?.name == BusNames.errorPrefix + "TooManyActivities", "pending activities count against max-live-activities")
    }
}
