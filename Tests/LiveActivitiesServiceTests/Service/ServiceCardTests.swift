import ActivityModel
import DBus
import Notifications
import Testing
@testable import LiveActivitiesService

/// Which cards the service hands to the presenter, in-process: one per change, none while
/// disabled, the current one when enabled again, and a close when the activity is dismissed.
@Suite(.timeLimit(.minutes(5))) struct ServiceCardTests {
    @Test func disablingHidesCardsAndEnablingShowsThemAsTheyAreNow() throws {
        let world = try ServiceWorld()
        let sink = try #require(world.sink)
        let c = world.client
        let id = try c.start("generic", state: ["title": .string("switch")])
        try c.call("Set", [.string(BusNames.managerInterface), .string("Enabled"), .variant(.boolean(false))],
                   interface: "org.freedesktop.DBus.Properties")
        try c.update(id, ["title": .string("changed while off")])
        world.sync()
        #expect(sink.requests.last == .hideAll)
        #expect(sink.cards(id).map(\.card.title) == ["switch"], "no card while disabled")
        #expect(try c.get(id)["title"]?.string == "changed while off", "the activity itself goes on")

        try c.call("Set", [.string(BusNames.managerInterface), .string("Enabled"), .variant(.boolean(true))],
                   interface: "org.freedesktop.DBus.Properties")
        world.sync()
        #expect(sink.cards(id).last?.card.title == "changed while off", "handed over as it is now")
        #expect(sink.requests.last == .showAll)
    }

    @Test func anImmediateEndClosesTheCardAndRemovesTheObject() throws {
        let world = try ServiceWorld()
        let sink = try #require(world.sink)
        let c = world.client
        let id = try c.start("generic", state: ["title": .string("gone")])
        try c.end(id, options: ["dismissal": .string("immediate")])
        world.sync()
        #expect(sink.requests.contains(.close(id: id)))
        #expect(c.error { _ = try c.get(id) }?.name == BusNames.errorPrefix + "NotFound")
        #expect(c.received("InterfacesRemoved").count == 1)
    }

    @Test func oneRoundPublishesEventsInOrderAndOnlyChangedProperties() throws {
        let world = try ServiceWorld()
        let c = world.client
        let id = try c.start("generic", state: ["title": .string("A"), "body": .string("same")])
        try c.update(id, ["title": .string("B")])
        try c.update(id, ["title": .string("B")])
        world.sync()
        let members = c.signals.filter { $0.path == BusNames.managerPath && $0.interface == BusNames.managerInterface }
            .map { $0.member ?? "" }
        #expect(members == ["ActivityStarted", "ActivityUpdated", "ActivityUpdated"])
        let changes = c.propertiesChanged(on: BusNames.activityPath(id))
        #expect(changes.allSatisfy { $0["Body"] == nil }, "an unchanged Body is never announced")
        #expect(changes.last?["Title"] == .string("B"))
        #expect(changes.filter { $0["Title"] != nil }.count <= 1, "the same Title is announced once")
        #expect(try c.property("ActiveCount") == .uint32(1))
        #expect(try c.property("CompactText").string?.hasPrefix("B") == true)
    }
}
