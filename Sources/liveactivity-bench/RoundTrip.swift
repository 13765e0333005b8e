import DBus
import Foundation

/// Update round trip against Peer.Ping on the same daemon and connection, interleaved so
/// both see the same conditions.
enum RoundTrip {
    static func measure(world: BenchWorld, count: Int) throws -> [Row] {
        let client = try world.client()
        try client.start("generic", state: ["title": .string("round trip")], id: "rtt")
        var updates: [Double] = []
        var pings: [Double] = []
        for i in 0..<(count + 200) {
            let t0 = monotonicSeconds()
            try client.update("rtt", sequence: Int64(i))
            let t1 = monotonicSeconds()
            try client.ping()
            let t2 = monotonicSeconds()
            if i >= 200 { updates.append(t1 - t0); pings.append(t2 - t1) }
        }
        try client.end("rtt")
        let lifecycle = try startEndRoundTrips(client, count: count / 5)
        let updateMedian = percentile(updates, 0.5), pingMedian = percentile(pings, 0.5)
        let updateP99 = percentile(updates, 0.99)
        let ratio = updateMedian / pingMedian
        return [
            Row(name: "Peer.Ping round trip, median / p99 (\(count), interleaved)",
                measured: "\(micros(pingMedian)) / \(micros(percentile(pings, 0.99)))", target: "reference", met: nil),
            Row(name: "Update round trip, median", measured: micros(updateMedian) + String(format: " (%.2f× Ping)", ratio),
                target: "≤ 1.3× Ping", met: ratio <= 1.3),
            Row(name: "Update round trip, p99", measured: micros(updateP99), target: "< 1 ms", met: updateP99 < 0.001),
            Row(name: "Start and End round trips, median each (\(count / 5) pairs)",
                measured: "\(micros(percentile(lifecycle.starts, 0.5))) / \(micros(percentile(lifecycle.ends, 0.5)))",
                target: "reference", met: nil),
        ]
    }

    /// Start and End (lifecycle changes, written and fsynced before the reply), one after the other.
    private static func startEndRoundTrips(_ client: BenchClient, count: Int) throws -> (starts: [Double], ends: [Double]) {
        var starts: [Double] = [], ends: [Double] = []
        for i in 0..<count {
            let t0 = monotonicSeconds()
            try client.start("generic", state: ["title": .string("lifecycle")], id: "life\(i)")
            let t1 = monotonicSeconds()
            try client.end("life\(i)")
            starts.append(t1 - t0)
            ends.append(monotonicSeconds() - t1)
        }
        return (starts, ends)
    }
}
