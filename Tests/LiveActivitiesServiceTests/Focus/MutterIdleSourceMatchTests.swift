import DBus
@testable import Idle
import Testing
import TestSupport
@testable import LiveActivitiesService

/// The daemon builds a new `MutterIdleSource` every time GNOME's idle monitor comes or goes on the
/// bus; each one adds a match rule for `WatchFired`. This proves the rule goes with the source, so
/// a monitor that restarts often does not pile match rules up in the bus (the bus's own count,
/// from `org.freedesktop.DBus.Debug.Stats`).
@Suite(.timeLimit(.minutes(1))) struct MutterIdleSourceMatchTests {
    /// The bus's total of match rules across all connections.
    private func matchRules(on connection: DBusConnection) throws -> UInt64 {
        let reply = try connection.callMethod(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                              interface: "org.freedesktop.DBus.Debug.Stats", member: "GetStats")
        guard case .dictionary(_, _, let entries)? = reply.first,
              let rules = entries.first(where: { $0.key.string == "MatchRules" })?.value.integer else {
            Issue.record("GetStats carries no MatchRules: \(reply)")
            return 0
        }
        return UInt64(rules)
    }

    @Test func aSourceTakesItsMatchRuleWithIt() throws {
        let bus = try PrivateBus()
        let monitor = try FakeMutterIdleMonitor(bus: bus)  // a source is made only for a monitor on the bus
        let connection = try DBusConnection(address: bus.address)
        let clock = ManualClock(now: ServiceWorld.t0)
        let before = try matchRules(on: connection)
        var source: MutterIdleSource? = MutterIdleSource(connection: connection, clock: clock)
        #expect(try matchRules(on: connection) == before + 1)
        for _ in 0..<20 {
            source = MutterIdleSource(connection: connection, clock: clock)
        }
        #expect(source != nil)
        source = nil
        // RemoveMatch goes without waiting for its reply; GetStats on the same connection is
        // handled after it, so this count already includes every removal.
        #expect(try matchRules(on: connection) == before)
        withExtendedLifetime(monitor) {}
    }
}
