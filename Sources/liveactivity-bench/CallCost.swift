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
        let ratio = one.cpu / ping.cpu, growth = thirtyTwo.cpu / one.cpu
        return [
            Row(name: "Daemon CPU per Peer.Ping (schedstat, all threads, \(count) calls)", measured: micros(ping.cpu) + " (" + ping.threads + ")",
                target: "reference", met: nil),
            Row(name: "Daemon CPU per Update, 1 live activity", measured: micros(one.cpu) + String(format: " (%.1f× Ping; ", ratio) + one.threads + ")",
                target: "≤ 4× Ping", met: ratio <= 4),
            Row(name: "Daemon CPU per Update, 32 live activities", measured: micros(thirtyTwo.cpu) + String(format: " (%.2f× 1 live; ", growth) + thirtyTwo.threads + ")",
                target: "≤ 1.5× 1 live", met: growth <= 1.5),
        ]
    }

    /// The daemon's CPU seconds per call of `body`, over `count` calls and what they set off
    /// (the publishing round and the settling after the last call, 0.2 s).
    /// Also per thread that ran, e.g. `event loop 9.8 µs, card thread 0.4 µs`.
    private static func perCall(world: BenchWorld, count: Int, _ body: (Int) throws -> Void) throws -> (cpu: Double, threads: String) {
        let cost = try world.cost {
            for i in 0..<count { try body(i) }
            Thread.sleep(forTimeInterval: 0.2)
        }
        let threads = cost.threads.filter { $0.cpu > 0 }.sorted { $0.cpu > $1.cpu }
            .map { "\($0.name == "main" ? "event loop" : $0.name == "unnamed" ? "card thread" : $0.name) \(micros($0.cpu / Double(count)))" }
            .joined(separator: ", ")
        return (cost.cpu / Double(count), threads)
    }
}
