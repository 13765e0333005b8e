import DBus
import Foundation
import Testing
import TestSupport

/// Issue 18, point 6: a flood of push messages never holds up the bus. The event loop runs a
/// bounded batch of posted work, then polls the bus again, so a call's reply waits behind at
/// most one batch of push messages, not the whole queue.
///
/// Measured as the CPU time the daemon's loop thread spends between a Ping's sending and its
/// reply (schedstat, nanoseconds): a reply that waited for the queue costs the whole queue's
/// work (seconds of it before issue 18), one that waits behind a batch costs a batch (2 ms at
/// most) and the routing. Time spent waiting for a CPU on a loaded machine is not in it, so
/// the bound holds under load (the wall-clock latencies are printed, not bounded).
@Suite("Push flood fairness", .timeLimit(.minutes(5)), .serialized)
struct PushFloodTests {
    @Test func pingWaitsBehindOneBatchDuringATenThousandMessageFlood() throws {
        let w = try PushWorld(recorderName: nil)
        let (id, token) = try w.startWithToken()
        #expect(!token.isEmpty)
        let pinger = try TestClient(bus: w.fixture.bus, recordSignals: false)
        // 10,000 in the suite; LIVEACTIVITIES_FLOOD_COUNT=30000 and LIVEACTIVITIES_FLOOD_PING_MS=10 give
        // issue 28's measurement (docs/push.md reports it).
        let environment = ProcessInfo.processInfo.environment
        let count = environment["LIVEACTIVITIES_FLOOD_COUNT"].flatMap(Int.init) ?? 10_000
        let pacing = UInt32(environment["LIVEACTIVITIES_FLOOD_PING_MS"].flatMap(Int.init) ?? 2) * 1_000
        let base = PushWorld.now()
        var lines = ""
        for n in 0..<count {
            lines += "{\"aps\": {\"timestamp\": \(base), \"event\": \"update\", \"content-state\": {\"body\": \"flood\(n)\"}}}\n"
        }
        let file = w.broker.directory.url.appendingPathComponent("flood.txt")
        try lines.write(to: file, atomically: true, encoding: .utf8)
        let publisher = try ChildProcess("/bin/sh", ["-c", "exec mosquitto_pub -h 127.0.0.1 -p \(w.broker.port) -q 1 "
                                                      + "-t liveactivities/activity/\(token) -l < '\(file.path)'"])
        defer { publisher.stop() }

        var latencies: [Double] = []
        var loopMilliseconds: [Double] = []
        var lastBody = ""
        let deadline = Date().addingTimeInterval(240)
        while lastBody != "flood\(count - 1)" && Date() < deadline {
            let started = DispatchTime.now().uptimeNanoseconds
            let cpuBefore = ProcessStats.mainThreadCPUNanoseconds(pid: w.fixture.daemon.pid)
            _ = try pinger.connection.callMethod(destination: TestClient.busName, path: "/", interface: "org.freedesktop.DBus.Peer",
                                                 member: "Ping", arguments: [], timeoutMilliseconds: 30_000)
            let cpuAfter = ProcessStats.mainThreadCPUNanoseconds(pid: w.fixture.daemon.pid)
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
            if let cpuBefore, let cpuAfter { loopMilliseconds.append(Double(cpuAfter - cpuBefore) / 1e6) }
            if latencies.count % 20 == 0 { lastBody = (try? pinger.get(id)["body"]?.string) ?? "" }
            usleep(pacing)  // pacing, not a wait: a Ping every 2 ms samples the flood without adding one
        }
        #expect(lastBody == "flood\(count - 1)", "every message was applied (last body \(lastBody))")
        let sorted = latencies.sorted()
        let cpu = loopMilliseconds.sorted()
        func p99(_ values: [Double]) -> Double { values.isEmpty ? .infinity : values[min(values.count - 1, Int(Double(values.count) * 0.99))] }
        print("push flood: \(count) messages, \(latencies.count) pings; wall median \(sorted[sorted.count / 2]) ms, p99 \(p99(sorted)) ms, "
              + "max \(sorted.last ?? 0) ms; loop CPU per Ping median \(cpu.isEmpty ? 0 : cpu[cpu.count / 2]) ms, "
              + "p99 \(p99(cpu)) ms, max \(cpu.last ?? 0) ms")
        #expect(latencies.count >= 100, "enough pings during the flood to speak of a p99: \(latencies.count)")
        #expect(loopMilliseconds.count == latencies.count, "the loop thread's schedstat was readable")
        // One batch is 2 ms of work at most (the median); the rest are batches the loop runs
        // while the Ping is still on its way (the bus daemon and this test wait for a CPU too:
        // 21 ms at a load average of 12). Waiting for the queue cost 1382 ms (batch limit lifted).
        #expect(p99(cpu) < 100, "the loop's CPU time while a Ping waited, p99: \(p99(cpu)) ms (max \(cpu.last ?? 0) ms)")
        #expect(w.fixture.daemon.isRunning)
    }
}
