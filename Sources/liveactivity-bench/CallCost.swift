import Foundation

/// The daemon's own CPU per call, from schedstat (all its threads, everything a call set off
/// included): `Peer.Ping` against `Update` with 1 and with 32 live activities, each run on its
/// own after a warm-up. Unlike round trips, a busy machine cannot blur these figures much.
enum CallCost {
    static func measure(world: BenchWorld, count: Int) throws -> [Row] {
        let client = try world.client()
        try client.start("generic", state: ["title": .string("call cost")], id: "cost")
        for i in 0..<200 { try client.update("cost", sequence: Int64(i)); try client.ping() }
        let ping = try perCall(world: world, count: count) { _ in try client.ping() }
        let one = try perCall(world: world, count: count) { i in try client.update("cost", sequence: Int64(1000 + i)) }
        let others = (1..<32).map { "cost_\($0)" }
        for id in others { try client.start("generic", state: ["title": .string(id)], id: id) }
        let thirtyTwo = try perCall(world: world, count: count) { i in try client.update("cost", sequence: Int64(1_000_000 + i)) }
        for id in others + ["cost"] { try client.end(id) }
        let ratio = one / ping, growth = thirtyTwo / one
        return [
            Row(name: "Daemon CPU per Peer.Ping (schedstat, all threads, \(count) calls)", measured: micros(ping),
                target: "reference", met: nil),
            Row(name: "Daemon CPU per Update, 1 live activity", measured: micros(one) + String(format: " (%.1f× Ping)", ratio),
                target: "≤ 4× Ping", met: ratio <= 4),
            Row(name: "Daemon CPU per Update, 32 live activities", measured: micros(thirtyTwo) + String(format: " (%.2f× 1 live)", growth),
                target: "≤ 1.5× 1 live", met: growth <= 1.5),
        ]
    }

    /// The daemon's CPU seconds per call of `body`, over `count` calls and what they set off
    /// (the publishing round and the settling after the last call, 0.2 s).
    private static func perCall(world: BenchWorld, count: Int, _ body: (Int) throws -> Void) throws -> Double {
        let cost = try world.cost {
            for i in 0..<count { try body(i) }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return cost.cpu / Double(count)
    }
}
