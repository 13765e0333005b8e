import Testing
import TestSupport

@Test func privateBusAndDunstStart() throws {
    let bus = try PrivateBus()
    #expect(bus.address.hasPrefix("unix:path="))
    let dunst = try Dunst(bus: bus)
    #expect(bus.hasOwner("org.freedesktop.Notifications"))
    _ = try runCommand("notify-send", ["hello", "world"], environment: bus.environment())
    #expect(waitUntil { (try? dunst.displayedCount()) == 1 })
}
