import Foundation
import Testing
import TestSupport

/// Issue 18, point 9: a laptop that is offline with push configured stays idle. Between two
/// connection attempts the MQTT thread sleeps the whole backoff (a condition variable with a
/// timeout, which `stop()` signals), instead of waking every 100 ms to look for `stop`.
@Suite("Push offline idle", .timeLimit(.minutes(5)), .serialized)
struct PushIdleTests {
    @Test func anUnreachableBrokerCostsNoWakeUpsBeyondTheBackoff() throws {
        let w = try PushWorld(brokerRunning: false, recorderName: nil)
        #expect(w.waitForStatus { $0.hasPrefix("error: ") }, "status: \(w.status)")
        // Let the first attempts (1 s, 2 s) pass; then the backoff is 4 s and more. Not an
        // absence proof: the back-off schedule is the subject, and no event marks an attempt.
        Thread.sleep(forTimeInterval: 3.5)
        let pid = w.fixture.daemon.pid
        let before = try #require(ProcessStats.read(pid: pid))
        let window = 6.0
        Thread.sleep(forTimeInterval: window)  // the subject: an idle window, measured in wake-ups
        let after = try #require(ProcessStats.read(pid: pid))
        let wakeups = after.voluntarySwitches - before.voluntarySwitches
        let byThread = after.threads.map { name, now in "\(name): \(now.switches - (before.threads[name]?.switches ?? 0))" }
        print("offline push: \(wakeups) wake-ups in \(window) s (\(byThread.sorted().joined(separator: ", ")))")
        // At most two attempts fall in the window (backoff 4 s, then 8 s); each costs a few
        // switches (the connect, the status posted to the loop). Waking every 100 ms was 60.
        #expect(wakeups <= 12, "\(wakeups) wake-ups in \(window) s while the broker is unreachable: \(byThread)")
        #expect(w.fixture.daemon.isRunning)
    }
}
