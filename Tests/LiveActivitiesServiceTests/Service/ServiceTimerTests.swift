import ActivityModel
import DBus
import Notifications
import Testing
@testable import LiveActivitiesService

/// What the daemon's one timer does by itself, in-process with a manual clock: each moment is
/// reached by moving the clock, so "nothing happened before" is exact and no test waits.
@Suite(.timeLimit(.minutes(5))) struct ServiceTimerTests {
    /// A 16-hour fast 100 s in: its card shows minutes, so in the next 62 s it changes once,
    /// at 120 s, and the service sleeps until then. Before: a subprocess test idling 62 s.
    @Test func aMinutesCardChangesOnceAMinuteOnTheMinute() throws {
        let world = try ServiceWorld()
        let sink = try #require(world.sink)
        let start = world.clock.now - 100
        let id = try world.client.start("fasting", attributes: ["fasting-hours": .uint32(16), "start-time": .int64(Int64(start))])
        world.advance(by: 1)  // past the settling of the manager's properties after a call
        #expect(sink.cards(id).count == 1)
        #expect(world.clock.pendingWakeups == [start + 120], "the one timer is armed at the next shown minute, and nothing else")
        world.advance(to: start + 119.9)
        #expect(sink.cards(id).count == 1, "nothing changes before the minute")
        world.advance(to: start + 162)
        let cards = sink.cards(id)
        #expect(cards.count == 2, "one more card in 62 s: \(cards.map(\.card.body))")
        #expect(cards.last?.alert == nil, "a minute tick is routine")
        #expect(cards.last?.card.body != cards.first?.card.body)
        #expect(try world.client.get(id)["status"]?.string == "active")
    }

    @Test func aSecondsTimerAnnouncesEachSecondOnce() throws {
        let world = try ServiceWorld()
        let now = Int64(world.clock.now)
        let id = try world.client.start("generic", attributes: ["timer-start": .int64(now), "timer-end": .int64(now + 120)],
                                        state: ["title": .string("Tea")])
        world.sync()
        world.client.forgetSignals()
        for _ in 0..<3 { world.advance(by: 1) }
        let trailing = world.client.propertiesChanged(on: BusNames.activityPath(id)).compactMap { $0["CompactTrailing"]?.string }
        #expect(trailing == ["1:59", "1:58", "1:57"], "one PropertiesChanged per shown second, only changes")
    }

    @Test func pauseFreezesResumeContinuesExtendMovesTheEnd() throws {
        let world = try ServiceWorld()
        let c = world.client
        let id = try c.start("focus", attributes: ["minutes": .uint32(25)])
        try c.call("Pause", [.string(id)])
        let paused = try c.get(id)
        #expect(paused["status"]?.string == "paused")
        #expect(paused["compact-trailing"]?.string == "25:00")
        #expect(paused["body"]?.string?.hasPrefix("Paused") == true)
        world.advance(by: 2)
        #expect(try c.get(id)["compact-trailing"] == paused["compact-trailing"], "the remaining time stands still")
        #expect(world.clock.nextWakeup == nil, "a paused timer arms nothing")

        try c.call("Resume", [.string(id)])
        #expect(try c.get(id)["compact-trailing"]?.string == "25:00", "resumed where it stopped")
        world.advance(by: 2)
        #expect(try c.get(id)["compact-trailing"]?.string == "24:58", "the countdown runs again")
        try c.call("Extend", [.string(id), .int64(300)])
        #expect(try c.get(id)["compact-trailing"]?.string == "29:58", "Extend 300 adds 5 min")
        world.sync()
        #expect(c.received("StatusChanged").contains([.string(id), .string("paused")]))
        #expect(c.received("StatusChanged").contains([.string(id), .string("active")]))
    }

    @Test func aFocusSessionCompletesAtZeroWithItsAlert() throws {
        let world = try ServiceWorld()
        let sink = try #require(world.sink)
        let id = try world.client.start("focus", attributes: ["minutes": .uint32(1), "start-time": .int64(Int64(world.clock.now) - 57)])
        world.advance(by: 2.9)
        #expect(try world.client.get(id)["status"]?.string == "active")
        world.advance(by: 0.2)
        #expect(world.client.received("ActivityEnded").contains([.string(id), .string("completed")]))
        #expect(try world.client.get(id)["reason"]?.string == "completed")
        let alert = try #require(sink.cards(id).last)
        #expect(alert.card.title == "Focus session completed!")
        #expect(alert.alert == CardAlert(soundName: "complete"))
        #expect(alert.card.buttons.isEmpty, "an ended card has no buttons")
    }

    @Test func aFastChangesPhaseWithAnAlert() throws {
        let world = try ServiceWorld()
        let sink = try #require(world.sink)
        let id = try world.client.start("fasting", attributes: ["fasting-hours": .uint32(1),
                                                                "start-time": .int64(Int64(world.clock.now) - 3600 + 3)])
        world.sync()
        #expect(sink.cards(id).last?.alert == nil)
        world.advance(by: 3)
        let titles = world.client.propertiesChanged(on: BusNames.activityPath(id)).compactMap { $0["Title"]?.string }
        #expect(titles == ["Eating window"], "PropertiesChanged carries the new phase's title")
        let alert = try #require(sink.cards(id).last)
        #expect(alert.card.title == "Fasting goal reached")
        #expect(alert.card.body.contains("You fasted 1h."))
        #expect(alert.alert == CardAlert(soundName: "complete"))
        #expect(try world.client.get(id)["status"]?.string == "active", "a fast goes on until the user ends it")
    }

    @Test func nothingLiveArmsNothing() throws {
        let world = try ServiceWorld()
        let id = try world.client.start("focus", attributes: ["minutes": .uint32(25)])
        world.sync()
        #expect(world.clock.nextWakeup != nil)
        try world.client.end(id, options: ["dismissal": .string("immediate")])
        world.advance(by: 0.1)
        #expect(world.clock.nextWakeup == nil, "nothing wakes the daemon when nothing is live")
    }
}
