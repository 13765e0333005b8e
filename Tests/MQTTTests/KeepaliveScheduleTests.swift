import MQTT
import Testing

/// When the network thread wakes for the keepalive, from libmosquitto's log lines (issue 29:
/// a connected, idle daemon wakes twice per keepalive, not every 20 s or every second).
@Suite("Keepalive schedule", .timeLimit(.minutes(1)))
struct KeepaliveScheduleTests {
    private static let second: Int64 = 1_000_000_000

    @Test func beforeAnyPacketItWaitsAThirdOfTheKeepalive() {
        let schedule = KeepaliveSchedule(keepaliveSeconds: 60)
        #expect(schedule.waitMilliseconds(atMonotonicNanoseconds: 100 * Self.second) == 20_000)
    }

    @Test func afterConnectingItWakesWhenThePingIsDueAndNotBefore() {
        var schedule = KeepaliveSchedule(keepaliveSeconds: 60)
        schedule.heard("Client la-1 sending CONNECT", at: 100)
        schedule.heard("Client la-1 received CONNACK (0)", at: 100)
        // At 100.4 s: due at 160 s (libmosquitto's whole seconds), 5 ms into that second.
        #expect(schedule.waitMilliseconds(atMonotonicNanoseconds: 100 * Self.second + 400_000_000) == 59_605)
    }

    @Test func theEarlierOfTheLastPacketOutAndInSetsTheMoment() {
        var schedule = KeepaliveSchedule(keepaliveSeconds: 60)
        schedule.heard("Client la-1 sending CONNECT", at: 100)
        schedule.heard("Client la-1 received CONNACK (0)", at: 100)
        schedule.heard("Client la-1 sending PUBLISH (d0, q1, r0, m1, 'la/receipt', ... (20 bytes))", at: 130)
        // Nothing read since 100: libmosquitto pings at 160 (`now - last_msg_in >= keepalive`).
        #expect(schedule.waitMilliseconds(atMonotonicNanoseconds: 131 * Self.second) == 29_005)
        schedule.heard("Client la-1 received PUBACK (Mid: 1, RC:0)", at: 130)
        #expect(schedule.waitMilliseconds(atMonotonicNanoseconds: 131 * Self.second) == 59_005)
    }

    @Test func aPingStartsTheNextKeepalive() {
        var schedule = KeepaliveSchedule(keepaliveSeconds: 60)
        schedule.heard("Client la-1 received CONNACK (0)", at: 100)
        schedule.heard("Client la-1 sending CONNECT", at: 100)
        schedule.heard("Client la-1 sending PINGREQ", at: 160)
        #expect(schedule.waitMilliseconds(atMonotonicNanoseconds: 160 * Self.second + 5_000_000) == 60_000)
        schedule.heard("Client la-1 received PINGRESP", at: 160)
        #expect(schedule.waitMilliseconds(atMonotonicNanoseconds: 160 * Self.second + 5_000_000) == 60_000)
    }

    /// Due and not sent (a packet the log did not name made libmosquitto's moment later): it
    /// looks again a second later, never waiting past libmosquitto's moment.
    @Test func dueButNotSentLooksAgainASecondLater() {
        var schedule = KeepaliveSchedule(keepaliveSeconds: 60)
        schedule.heard("Client la-1 sending CONNECT", at: 100)
        schedule.heard("Client la-1 received CONNACK (0)", at: 100)
        #expect(schedule.waitMilliseconds(atMonotonicNanoseconds: 160 * Self.second + 5_000_000) == 1000)
    }

    @Test func linesThatAreNotPacketsChangeNothing() {
        var schedule = KeepaliveSchedule(keepaliveSeconds: 60)
        schedule.heard("Error: Connection refused", at: 100)
        schedule.heard("Client la-1 negotiated keepalive", at: 100)
        #expect(schedule == KeepaliveSchedule(keepaliveSeconds: 60))
        schedule.heard("Client la-1 sending CONNECT", at: 100)
        schedule.reset()
        #expect(schedule == KeepaliveSchedule(keepaliveSeconds: 60), "a new connection starts afresh")
    }
}
