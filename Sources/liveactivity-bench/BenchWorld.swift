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

    init(before: ProcessStats, after: ProcessStats) {
        cpu = after.cpuSeconds - before.cpuSeconds
        wakeups = after.voluntarySwitches - before.voluntarySwitches
        threads = after.threads.map { name, now in
            let then = before.threads[name] ?? (0, 0)
            return (name, now.switches - then.switches, now.cpuSeconds - then.cpuSeconds)
        }.sorted { $0.switches > $1.switches }
    }

    /// e.g. `main 1, gdbus 40` (threads that woke at all).
    var wakeupsByThread: String {
        threads.filter { $0.switches > 0 }.map { "\(Self.label($0.name)) \($0.switches)" }.joined(separator: ", ")
    }

    /// The main thread runs the event loop; the others are named by GLib, libdispatch or us.
    private static func label(_ name: String) -> String { name == "main" ? "event loop" : name == "unnamed" ? "card thread" : name }
}
