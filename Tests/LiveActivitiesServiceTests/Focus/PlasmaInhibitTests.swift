import DBus
import Foundation
@testable import Quiet
import Testing
import TestSupport
@testable import LiveActivitiesService

/// Plasma's Do Not Disturb as the daemon drives it: `Inhibit(s desktop_entry, s reason,
/// a{sv} hints) -> u` and `UnInhibit(u)` on `org.freedesktop.Notifications` (Plasma 5.27 and 6),
/// against a fake with that signature that tracks inhibitions by their holder, as Plasma does.
@Suite(.timeLimit(.minutes(5))) struct PlasmaInhibitTests {
    /// The inhibitions the fake holds: cookie → the holder's unique name.
    final class FakePlasma: @unchecked Sendable {
        let held = LockedBox<[UInt32: String]>([:])
        var thread: ServerThread?

        init(bus: PrivateBus) throws {
            let held = held
            thread = try ServerThread(address: bus.address) { connection, objects, _ in
                var next: UInt32 = 0
                let name = "org.freedesktop.Notifications"
                try objects.export("/org/freedesktop/Notifications", [DBusInterface(name: name, methods: [
                    DBusMethod("Inhibit", inputs: [DBusArgument("desktop_entry", "s"), DBusArgument("reason", "s"),
                                                   DBusArgument("hints", "a{sv}")], outputs: [DBusArgument("cookie", "u")]) { call in
                        next += 1
                        held.value[next] = call.sender ?? "?"
                        return [.uint32(next)]
                    },
                    DBusMethod("UnInhibit", inputs: [DBusArgument("cookie", "u")]) { call in
                        held.value[UInt32(truncatingIfNeeded: call.arguments.first?.integer ?? 0)] = nil
                        return []
                    },
                ])])
                _ = try connection.requestName(name, flags: [.doNotQueue])
            }
        }

        deinit { thread?.stop() }
    }

    @Test func onInhibitsAndRestoreLiftsOnlyItsOwnInhibition() throws {
        let bus = try PrivateBus()
        let plasma = try FakePlasma(bus: bus)
        plasma.held.value[99] = ":the.users.own"  // the user's own Do Not Disturb
        let controller = PlasmaDoNotDisturb(address: bus.address)
        #expect(try controller.currentState() == "", "nothing to save: the user's inhibition is never touched")
        try controller.turnOn()
        try controller.turnOn()
        #expect(plasma.held.value.count == 2, "one inhibition of ours, however often it is asked")
        try controller.restore("")
        #expect(plasma.held.value == [99: ":the.users.own"])
    }
}
