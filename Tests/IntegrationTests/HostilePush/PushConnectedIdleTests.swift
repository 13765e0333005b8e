import Foundation
import Testing
import TestSupport

/// Issue 29: connected to its broker and idle, the daemon wakes only for the broker's
/// keepalive. `mosquitto_loop(handle, -1, 1)` meant libmosquitto's default 1 s, so the MQTT
/// thread woke once a second; now it waits a third of the keepalive (20 s by default).
@Suite("Push connected idle", .timeLimit(.minutes(2)), .serialized)
struct PushConnectedIdleTests {
    @Test func aConnectedIdleDaemonDoesNotWakeEverySecond() throws {
        let w = try PushWorld(recorderName: nil)
        #expect(w.waitForStatus { $0 == "connected" }, "status: \(w.status)")
        let pid = w.fixture.daemon.pid
        let before = try #require(ProcessStats.read(pid: pid))
        let window = 5.0
        Thread.sleep(forTimeInterval: window)  // the subject: an idle window, measured in wake-ups
        let after = try #require(ProcessStats.read(pid: pid))
        // By thread, over the threads there at both readings: a Dispatch worker that ends in the
        // window takes its switches with it, and the process's total can even go down.
        let deltas = after.threads.compactMap { name, now in
            before.threads[name].map { (name, max(0, now.switches - $0.switches)) }
        }
        let wakeups = deltas.reduce(0) { $0 + $1.1 }
        let byThread = deltas.map { "\($0.0): \($0.1)" }
        print("connected idle push: \(wakeups) wake-ups in \(window) s (\(byThread.sorted().joined(separator: ", ")))")
        // Once a second was 5 or more in this window; the keepalive (60 s) falls in it at most once.
        #expect(wakeups <= 2, "\(wakeups) wake-ups in \(window) s while connected and idle: \(byThread)")
        #expect(w.fixture.daemon.isRunning)
    }
}
