import DBus
import Foundation
import Testing
import TestSupport

/// Exit status (issue 14, point 8): when the session bus goes away the daemon exits non-zero,
/// so `Restart=on-failure` brings it back.
@Suite("Losing the bus", .timeLimit(.minutes(5)))
struct BusLossTests {
    @Test func theDaemonExitsNonZeroWhenTheBusGoesAway() throws {
        let bus = try PrivateBus()
        let daemon = try DaemonProcess(bus: bus, environment: ["LIVEACTIVITIES_NO_CARDS": "1"])
        bus.stop()
        #expect(waitUntil(timeout: 10) { daemon.exitStatus != nil }, "the daemon exits")
        #expect(daemon.exitStatus == 1, "status \(String(describing: daemon.exitStatus)); log: \(daemon.log())")
        #expect(daemon.log().contains("the session bus went away"))
    }
}
