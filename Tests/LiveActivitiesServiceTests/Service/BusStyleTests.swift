import ActivityModel
import DBus
import Notifications
import Testing
@testable import LiveActivitiesService

/// Under a server whose cards show no seconds (GNOME Shell), only the card drops them:
/// everything on the bus (the activity's properties, `Get`, `CompactText`, PropertiesChanged
/// and the timer that keeps them current) keeps the standard style, so `liveactivity watch`,
/// LiveActivityKit and every panel count seconds (DESIGN.md, issue 19 point 3).
@Suite(.timeLimit(.minutes(2))) struct BusStyleTests {
    private static let gnomeLike = ServerProfile(routineUrgencyLow: true, showsSeconds: false)

    @Test func theBusKeepsItsSecondsWhileTheCardDropsThem() throws {
        let world = try ServiceWorld(profile: Self.gnomeLike)
        let sink = try #require(world.sink)
        let id = try world.client.start("focus", attributes: ["minutes": .uint32(25)])
        world.sync()
        world.client.forgetSignals()
        world.advance(by: 1)

        let got = try world.client.get(id)
        #expect(got["compact-trailing"]?.string == "24:59", "Get shows seconds")
        #expect(got["body"]?.string?.hasPrefix("24:59 left") == true, "Get's body shows seconds: \(got["body"] ?? .string(""))")
        let path = BusNames.activityPath(id)
        #expect(try world.client.property("CompactTrailing", path: path, interface: BusNames.activityInterface).unwrapped == .string("24:59"),
                "the property shows seconds")
        #expect(try world.client.property("CompactText").unwrapped.string?.contains("24:59") == true, "CompactText shows seconds")
        let trailing = world.client.propertiesChanged(on: path).compactMap { $0["CompactTrailing"]?.string }
        #expect(trailing == ["24:59"], "PropertiesChanged announces the second")
        #expect(world.clock.nextWakeup == world.clock.now + 1, "the timer keeps the bus's seconds current")

        let card = try #require(sink.cards(id).last?.card)
        #expect(card.body.hasPrefix("25m left") || card.body.hasPrefix("24m left"), "the card has no seconds: \(card.body)")
        #expect(!card.body.contains(":5"), "no m:ss on the card: \(card.body)")
        world.advance(by: 1)
        #expect(sink.cards(id).count == 1, "a second later the card (minutes) is the same, so none is sent")
    }

    @Test func aServerWithSecondsGetsThemOnTheCardToo() throws {
        let world = try ServiceWorld()
        let sink = try #require(world.sink)
        let id = try world.client.start("focus", attributes: ["minutes": .uint32(25)])
        world.advance(by: 1)
        let card = try #require(sink.cards(id).last?.card)
        #expect(card.body.hasPrefix("24:59 left"), "card: \(card.body)")
    }
}
