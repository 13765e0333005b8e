import DBus
import Foundation

/// Acknowledged updates per second from 1 and from 8 clients (each a thread with its own
/// connection, updating its share of 32 activities as fast as replies come back), the
/// Notify calls they cause, and the daemon's CPU per update.
enum Throughput {
    static let activities = 32

    /// Counts acknowledged updates across threads.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var failures: [String] = []
        func add(_ n: Int) { lock.lock(); count += n; lock.unlock() }
        func fail(_ message: String) { lock.lock(); failures.append(message); lock.unlock() }
        var value: (count: Int, failures: [String]) { lock.lock(); defer { lock.unlock() }; return (count, failures) }
    }

    static func startActivities(world: BenchWorld) throws -> [String] {
        let client = try world.client()
        return try (0..<activities).map { index in
            let id = "load_\(index)"
            try client.start("generic", state: ["title": .string("load \(index)")], id: id)
            return id
        }
    }

    /// Updates per second with `clients` threads for `seconds`, and the daemon's CPU over that time.
    static func run(world: BenchWorld, ids: [String], clients: Int, seconds: Double) throws -> (perSecond: Double, updates: Int, cpu: Double) {
        let counter = Counter()
        let address = world.bus.address
        let group = DispatchGroup()
        var elapsed = 0.0
        let cost = try world.cost {
            let started = monotonicSeconds()
            let deadline = started + seconds
            for client in 0..<clients {
                let mine = ids.enumerated().filter { $0.offset % clients == client }.map(\.element)
                group.enter()
                Thread {
                    flood(address: address, ids: mine, until: deadline, counter: counter)
                    group.leave()
                }.start()
            }
            group.wait()
            elapsed = monotonicSeconds() - started
        }
        let result = counter.value
        if let first = result.failures.first { throw BenchError.setup("\(result.failures.count) updates failed, first: \(first)") }
        return (Double(result.count) / elapsed, result.count, cost.cpu)
    }

    private static func flood(address: String, ids: [String], until deadline: Double, counter: Counter) {
        do {
            let client = try BenchClient(address: address)
            var sequence: Int64 = 0
            var done = 0
            while monotonicSeconds() < deadline {
                for id in ids {
                    sequence += 1
                    try client.update(id, sequence: sequence)
                    done += 1
                }
            }
            counter.add(done)
        } catch {
            counter.fail("\(error)")
        }
    }

    static func measure(world: BenchWorld, seconds: Double) throws -> [Row] {
        let ids = try startActivities(world: world)
        Thread.sleep(forTimeInterval: 1.5)
        let loaded = try IdleCost.loadedRSS(world: world)
        let one = try run(world: world, ids: ids, clients: 1, seconds: seconds)
        Thread.sleep(forTimeInterval: 1.5)
        world.server.resetTimes()
        let notifiesBefore = world.server.notifyCount
        let eight = try run(world: world, ids: ids, clients: 8, seconds: seconds)
        Thread.sleep(forTimeInterval: 1.5)
        let notifies = world.server.notifyCount - notifiesBefore
        let shortest = world.server.shortestGapPerCard() ?? .infinity
        // Ended, so the parts that follow (push, on a restarted daemon) start under the limit.
        let client = try world.client()
        for id in ids { try client.end(id) }
        let bound = Double(activities) * (seconds + 2) / Double(eight.updates) * 1000
        return [
            loaded,
            Row(name: "Updates/s, 1 client (\(Int(seconds)) s)", measured: String(format: "%.0f", one.perSecond),
                target: "reference", met: nil),
            Row(name: "Updates/s, 8 clients (\(Int(seconds)) s, 32 activities)", measured: String(format: "%.0f", eight.perSecond),
                target: "≥ 10,000", met: eight.perSecond >= 10_000),
            Row(name: "Daemon CPU per acknowledged Update (8 clients)",
                measured: micros(eight.cpu / Double(max(1, eight.updates))), target: "reference", met: nil),
            Row(name: "Notify calls per 1,000 updates (8 clients)",
                measured: String(format: "%.2f (%d Notify for %d updates)", Double(notifies) / Double(eight.updates) * 1000, notifies, eight.updates),
                target: String(format: "≤ 1 per activity per second (≤ %.2f here)", bound), met: Double(notifies) / Double(eight.updates) * 1000 <= bound),
            Row(name: "Shortest time between two Notify calls for one card", measured: millis(shortest),
                target: "≥ 1 s (as received: ≥ 0.95 s)", met: shortest >= 0.95),
        ]
    }
}
