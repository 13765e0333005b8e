import ActivityModel
import DBus
import Notifications
import Testing
@testable import LiveActivitiesService

/// The daemon paces routine cards itself (one per activity per second, as the presenter
/// does), so a flood of updates hands the notification thread one card per second, not one
/// per update; the latest card wins and an alert never waits (issue 19 point 1).
@Suite(.timeLimit(.minutes(2))) struct CardPacingTests {
    @Test func aFloodOfUpdatesHandsOneCardPerSecondTheLatestWinning() throws {
        let world = try ServiceWorld(cardInterval: 1)
        let sink = try #require(world.sink)
        let id = try world.client.start("generic", state: ["title": .string("Build")])
        world.sync()
        #expect(sink.cards(id).count == 1, "the first card goes at once")
        for step in 1...10 { try world.client.update(id, ["title": .string("Build"), "body": .string("step \(step)")]) }
        world.sync()
        #expect(sink.cards(id).count == 1, "ten updates within the second hand over nothing yet")
        // The manager's settling (+0.05 s), the fsync batch (+1 s) and the card's slot (+1 s):
        // one wake-up for the card, not one per update.
        #expect(world.clock.pendingWakeups == [ServiceWorld.t0 + 0.05, ServiceWorld.t0 + 1, ServiceWorld.t0 + 1],
                "\(world.clock.pendingWakeups)")
        world.advance(by: 1)
        let cards = sink.cards(id)
        #expect(cards.count == 2, "one card for the ten updates: \(cards.map(\.card.body))")
        #expect(cards.last?.card.body == "step 10", "the latest one")
    }

    @Test func anAlertGoesAtOnceAndReplacesTheCardWaiting() throws {
        let world = try ServiceWorld(cardInterval: 1)
        let sink = try #require(world.sink)
        let id = try world.client.start("generic", state: ["title": .string("Build")])
        try world.client.update(id, ["title": .string("Build"), "body": .string("routine")])
        try world.client.update(id, ["title": .string("Build"), "body": .string("red")],
                                options: ["alert-title": .string("Tests failed"), "alert-body": .string("3 failed")])
        world.sync()
        let cards = sink.cards(id)
        #expect(cards.count == 2, "the start's card, then the alert without waiting: \(cards.map(\.card.body))")
        #expect(cards.last?.alert != nil)
        world.advance(by: 1)
        #expect(sink.cards(id).count == 2, "the routine card that waited was replaced by the alert")
    }

    @Test func aCardWaitingGoesNowhereOnceItsActivityIsDismissed() throws {
        let world = try ServiceWorld(cardInterval: 1)
        let sink = try #require(world.sink)
        let id = try world.client.start("generic", state: ["title": .string("Build")])
        try world.client.update(id, ["title": .string("Build"), "body": .string("waiting")])
        try world.client.end(id, options: ["dismissal": .string("immediate")])
        world.advance(by: 2)
        #expect(!sink.cards(id).contains { $0.card.body == "waiting" }, "no card for a dismissed activity")
    }

    /// An Update between two ticks of a seconds countdown does not put every later card a
    /// fraction of a second behind its tick: its card goes with the next tick, on time, and
    /// the cards stay one per tick with no wake-up of their own.
    @Test func aCardBetweenTicksGoesWithTheNextTickAndTheCardsStayInStep() throws {
        let world = try ServiceWorld(cardInterval: 1)
        let sink = try #require(world.sink)
        let now = Int64(world.clock.now)
        let id = try world.client.start("generic", attributes: ["timer-start": .int64(now), "timer-end": .int64(now + 120)],
                                        state: ["title": .string("Tea")])
        world.advance(by: 0.5)
        try world.client.update(id, ["title": .string("Tea"), "body": .string("steeping")])
        world.sync()
        #expect(sink.cards(id).count == 1, "half a second after the first card, the update's card waits")
        #expect(world.clock.pendingWakeups == [ServiceWorld.t0 + 1, ServiceWorld.t0 + 1.5],
                "the tick (+1 s) and the fsync batch, no wake-up for the card: \(world.clock.pendingWakeups)")
        world.advance(to: ServiceWorld.t0 + 1)
        let cards = sink.cards(id).map(\.card.body)
        #expect(cards.count == 2 && cards.last == "steeping\n1:59 left", "the tick's card carries the update: \(cards)")
        world.advance(to: ServiceWorld.t0 + 2)
        #expect(sink.cards(id).last?.card.body == "steeping\n1:58 left", "the next tick's card goes at its tick")
        #expect(sink.cards(id).count == 3)
    }
}
