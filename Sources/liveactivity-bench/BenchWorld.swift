import DBus
import Foundation
import DaemonHarness

/// The daemon under test: a private bus, the counting notification server, and the real
/// `liveactivityd` binary (found beside this executable) with its own state and config.
final class BenchWorld {
    let bus: PrivateBus
    let server: CountingNotificationServer
    let daemon: DaemonProcess

    init() throws {
        bus = try PrivateBus()
        server = try CountingNotificationServer(bus: bus)
        daemon = try DaemonProcess(bus: bus, start: false)
        // Cards at minute granularity (the GNOME profile's way; a user setting elsewhere), so
        // fasting activities tick once a minute rather than once a second.
        try FileManager.default.createDirectory(at: daemon.configDirectory, withIntermediateDirectories: true)
        try "[*]\nshows-seconds = false\n".write(to: daemon.configDirectory.appendingPathComponent("servers.conf"),
                                                  atomically: true, encoding: .utf8)
    }

    /// A client on its own connection.
    func client() throws -> BenchClient { try BenchClient(address: bus.address) }

    /// The daemon's /proc figures now.
    func stats() throws -> ProcessStats {
        guard let stats = ProcessStats.read(pid: daemon.pid) else { throw BenchError.setup("the daemon is not running") }
        return stats
    }

    /// The change in the daemon's CPU time and wake-ups while `body` runs.
    func cost(of body: () throws -> Void) throws -> Cost {
        let before = try stats()
        try body()
        return Cost(before: before, after: try stats())
    }
}

/// What the daemon spent between two readings, in total and per thread.
struct Cost {
    let cpu: Double
    let wakeups: Int
    /// Per thread name: voluntary switches and CPU seconds, busiest first.
    let threads: [(name: String, switches: Int, cpu: Double)]

    /// Thread by thread (by id): a thread that exited meanwhile is left out instead of taking
    /// its whole past from the sum; one that started meanwhile counts from zero.
    init(before: ProcessStats, after: ProcessStats) {
        var byName: [String: (switches: Int, cpu: Double)] = [:]
        for (id, now) in after.tasks {
            let then = before.tasks[id].map { ($0.switches, $0.cpuSeconds) } ?? (0, 0)
            let sum = byName[now.name] ?? (0, 0)
            byName[now.name] = (sum.switches + now.switches - then.0, sum.cpu + now.cpuSeconds - then.1)
        }
        threads = byName.map { ($0.key, $0.value.switches, $0.value.cpu) }.sorted { $0.switches > $1.switches }
        cpu = threads.reduce(0) { $0 + $1.cpu }
        wakeups = threads.reduce(0) { $0 + $1.switches }
    }

    /// e.g. `main 1, gdbus 40` (threads that woke at all).
    var wakeupsByThread: String {
        threads.filter { $0.switches > 0 }.map { "\(Self.label($0.name)) \($0.switches)" }.joined(separator: ", ")
    }

    /// The main thread runs the event loop; the others are named by GLib, libdispatch or us.
    private static func label(_ name: String) -> String { name == "main" ? "event loop" : name == "unnamed" ? "card thread" : name }
}
