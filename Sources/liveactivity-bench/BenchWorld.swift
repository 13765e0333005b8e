import DBus
import Foundation
import TestSupport

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
    func cost(of body: () throws -> Void) throws -> (cpu: Double, wakeups: Int) {
        let before = try stats()
        try body()
        let after = try stats()
        return (after.cpuSeconds - before.cpuSeconds, after.voluntarySwitches - before.voluntarySwitches)
    }
}
