import ActivityModel
import DBus
import Testing
@testable import LiveActivitiesService

/// A read of many values is served from one moment: one zone reading (the service reads the
/// clock and the zone together, once per moment) and one render per activity, however many
/// properties the reply carries (issue 19 point 1). Before, each of the 19 properties took a
/// snapshot of its own.
@Suite(.timeLimit(.minutes(2))) struct OneMomentPerReadTests {
    @Test func getAllGetAndGetManagedObjectsEachReadOneMoment() throws {
        let world = try ServiceWorld()
        let ids = try (0..<3).map { _ in try world.client.start("focus", attributes: ["minutes": .uint32(25)]) }
        world.sync()
        let path = BusNames.activityPath(ids[0])

        var before = world.clock.zoneReadings
        let all = try world.client.call("GetAll", [.string(BusNames.activityInterface)], path: path,
                                        interface: "org.freedesktop.DBus.Properties")
        #expect(all.first?.vardict?.count == ActivityProperty.all.count, "every property in the reply")
        #expect(world.clock.zoneReadings - before == 1, "GetAll reads one moment")

        before = world.clock.zoneReadings
        _ = try world.client.get(ids[1])
        #expect(world.clock.zoneReadings - before == 1, "Get reads one moment")

        before = world.clock.zoneReadings
        let managed = try world.client.call("GetManagedObjects", [], interface: "org.freedesktop.DBus.ObjectManager")
        guard case .dictionary(_, _, let entries)? = managed.first else {
            Issue.record("GetManagedObjects replied \(managed)")
            return
        }
        #expect(entries.count == 3, "three objects reported")
        #expect(world.clock.zoneReadings - before == 1, "GetManagedObjects reads one moment for all its objects")
    }

    @Test func aStartAnnouncesItsObjectFromOneMoment() throws {
        let world = try ServiceWorld()
        world.sync()
        let before = world.clock.zoneReadings
        _ = try world.client.start("focus", attributes: ["minutes": .uint32(25)])
        world.sync()
        // InterfacesAdded before the reply, then one publishing round (properties, card,
        // compact text, tray and timer from the same renders).
        #expect(world.clock.zoneReadings - before == 2, "\(world.clock.zoneReadings - before) moments for one Start")
    }
}
