import DBus
import Foundation
import DaemonHarness

/// A minimal notification server for the benchmark: it owns org.freedesktop.Notifications on
/// the private bus, answers as dunst would, and counts the Notify calls it gets (with the
/// time of each, per notification id), so the daemon's traffic to the server can be measured.
final class CountingNotificationServer: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [UInt32: [Double]] = [:]
    private var nextID: UInt32 = 1
    private var total = 0

    /// Serves until the benchmark ends; the thread is kept alive by this reference.
    private var thread: ServerThread?

    init(bus: PrivateBus) throws {
        let owner = WeakReference(self)
        do {
            thread = try ServerThread(address: bus.address) { connection, objects, _ in
                try objects.export("/org/freedesktop/Notifications", [Self.interface(owner)])
                _ = try connection.requestName("org.freedesktop.Notifications", flags: [.doNotQueue])
            }
        } catch {
            throw BenchError.setup("notification server: \(error)")
        }
    }

    /// Notify calls so far, in total.
    var notifyCount: Int { lock.lock(); defer { lock.unlock() }; return total }

    /// The shortest time between two Notify calls for the same notification (nil: none twice).
    func shortestGapPerCard() -> Double? {
        lock.lock(); defer { lock.unlock() }
        var shortest: Double?
        for list in times.values {
            for (a, b) in zip(list, list.dropFirst()) { shortest = min(shortest ?? .infinity, b - a) }
        }
        return shortest
    }

    /// Forgets the per-card times (the total keeps counting).
    func resetTimes() { lock.lock(); times.removeAll(); lock.unlock() }

    /// The table the server thread serves; it reaches the counter only through `owner` (weak),
    /// so a Notify during the counter's `deinit` (which waits for this thread) gets id 0
    /// instead of reading a destroyed object.
    private static func interface(_ owner: WeakReference<CountingNotificationServer>) -> DBusInterface {
        NotificationsInterface.make(serverName: "dunst", vendor: "liveactivity-bench", version: "1.9.0",
                                    capabilities: ["actions", "body", "body-markup", "persistence"],
                                    notify: { call in owner.value?.count(call) ?? 0 }, close: { _ in })
    }

    private func count(_ call: NotificationsInterface.NotifyArguments) -> UInt32 {
        let now = Date().timeIntervalSince1970
        lock.lock(); defer { lock.unlock() }
        let id = call.replacesID != 0 ? call.replacesID : nextID
        if call.replacesID == 0 { nextID += 1 }
        times[id, default: []].append(now)
        total += 1
        return id
    }
}


/// Why the benchmark could not run.
enum BenchError: Error, CustomStringConvertible {
    case setup(String)
    var description: String {
        switch self { case .setup(let message): "benchmark setup failed: \(message)" }
    }
}
