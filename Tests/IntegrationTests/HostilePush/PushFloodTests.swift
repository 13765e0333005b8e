import DBus
import Foundation
import Testing
import TestSupport

/// Issue 18, point 6: a flood of push messages never holds up the bus. The event loop runs a
/// bounded batch of posted work, then polls the bus again, so a call's reply waits behind at
/// most one batch of push messages, not the whole queue.
@Suite("Push flood fairness", .timeLimit(.minutes(5)), .serialized)
struct PushFloodTests {
    @Test func pingStaysQuickDuringAThirtyThousandMessageFlood() throws {
        let w = try PushWorld(recorderName: nil)
        let (id, token) = try w.startWithToken()
        #expect(!token.isEmpty)
        let pinger = try TestClient(bus: w.fixture.bus, recordSignals: false)
        let count = 30_000
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
        var lastBody = ""
        let deadline = Date().addingTimeInterval(180)
        while lastBody != "flood\(count - 1)" && Date() < deadline {
            let started = DispatchTime.now().uptimeNanoseconds
            _ = try pinger.connection.callMethod(destination: TestClient.busName, path: "/", interface: "org.freedesktop.DBus.Peer",
                                                 member: "Ping", arguments: [], timeoutMilliseconds: 30_000)
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
            if latencies.count % 20 == 0 { lastBody = (try? pinger.get(id)["body"]?.string) ?? "" }
            usleep(2_000)
        }
        #expect(lastBody == "flood\(count - 1)", "every message was applied (last body \(lastBody))")
        let sorted = latencies.sorted()
        let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        let worst = sorted.last ?? 0
        print("push flood: \(count) messages, \(latencies.count) pings, median \(sorted[sorted.count / 2]) ms, p99 \(p99) ms, max \(worst) ms")
        #expect(latencies.count >= 100, "enough pings during the flood to speak of a p99: \(latencies.count)")
        // The daemon is CPU-bound during a flood; on a machine whose run queue is longer than
        // twice its cores (the whole suite in parallel shards, other builds), waiting for a CPU
        // dominates every hop of a Ping, so there the bound only proves the reply no longer
        // waits for the queue (it waited 3 s and more before issue 18).
        let overloaded = Self.loadAverage() > Double(ProcessInfo.processInfo.activeProcessorCount * 2)
        let bound = overloaded ? 500.0 : 50.0
        if overloaded { print("push flood: the machine is overloaded (load \(Self.loadAverage())); p99 bound \(bound) ms") }
        #expect(p99 < bound, "Ping p99 during the flood: \(p99) ms (max \(worst) ms)")
        #expect(w.fixture.daemon.isRunning)
    }

    /// The 1-minute load average (/proc/loadavg).
    static func loadAverage() -> Double {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").first.flatMap { Double($0) } ?? 0
    }
}
