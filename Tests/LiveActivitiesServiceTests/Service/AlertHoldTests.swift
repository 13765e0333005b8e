import ActivityModel
import DBus
import Notifications
import Testing
@testable import LiveActivitiesService

/// An alert on a ticking card, in-process with a manual clock: it pops up with its sound, its
/// text stays 15 s while the state below it moves on, then the card shows the state again by
/// itself. Before: a subprocess test that waited 20 s of real time.
@Suite(.timeLimit(.minutes(5))) struct AlertHoldTests {
    @Test func anAlertIsHeldFifteenSecondsThenTheCardShowsTheStateAgain() throws {
        let world = try ServiceWorld()
        let sink = try #require(world.sink)
        let c = world.client
        let id = try c.start("generic", state: ["title": .string("Build"), "progress": .double(0.1)])
        world.advance(by: 1)
        try c.update(id, ["progress": .double(0.2)])
        world.sync()
        #expect(sink.cards(id).map(\.card.title) == ["Build", "Build"])
        #expect(sink.cards(id).allSatisfy { $0.alert == nil }, "routine updates are silent")

        world.advance(by: 1)
        try c.update(id, ["title": .string("Build failed")],
                     options: ["alert-title": .string("Tests failed"), "alert-body": .string("3 of 120 failed"),
                               "alert-sound": .string("dialog-warning")])
        world.sync()
        let alert = try #require(sink.cards(id).last)
        #expect(alert.alert == CardAlert(soundName: "dialog-warning"))
        #expect(alert.card.title == "Tests failed")
        #expect(alert.card.body.hasPrefix("3 of 120 failed\n"))
        #expect(alert.card.quiet == false)
        let alertedAt = world.clock.now

        world.advance(by: 1)
        try c.update(id, ["progress": .double(0.9)])
        world.sync()
        let held = try #require(sink.cards(id).last)
        #expect(held.alert == nil, "a routine update during the hold is not an alert again")
        #expect(held.card.title == "Tests failed", "within 15 s the alert's text stays on the card")
        #expect(held.card.progress == 0.9, "while the state below it moves on")
        let before = sink.cards(id).count

        #expect(world.clock.pendingWakeups.contains(alertedAt + AlertHold.seconds),
                "the service asked to be woken when the hold ends: \(world.clock.pendingWakeups)")
        world.advance(to: alertedAt + AlertHold.seconds - 0.1)
        #expect(sink.cards(id).count == before, "nothing before the hold ends")
        world.advance(to: alertedAt + AlertHold.seconds + 0.1)
        let after = try #require(sink.cards(id).last)
        #expect(sink.cards(id).count == before + 1)
        #expect(after.card.title == "Build failed", "the card shows the state again without any call from the client")
        #expect(after.alert == nil)
    }

    @Test func theFinalCardShowsHowItEndedNotAnEarlierAlert() throws {
        let world = try ServiceWorld()
        let sink = try #require(world.sink)
        let c = world.client
        let id = try c.start("generic", state: ["title": .string("Deploy")])
        try c.update(id, ["title": .string("Deploy")], options: ["alert-title": .string("Half way")])
        world.advance(by: 2)
        try c.end(id, options: ["reason": .string("completed")])
        world.sync()
        let final = try #require(sink.cards(id).last)
        #expect(final.card.title == "Deploy")
        #expect(final.card.buttons.isEmpty, "an ended card has no buttons")
    }
}
