import DBus
import Foundation
import TestSupport

/// The lifetime every fake server of these tests shares: its `ServerThread` behind a lock,
/// work posted to that thread while it runs, a barrier with the daemon, and a stop that
/// releases the bus name (as a real server exiting). Each fake holds one and stops it in its
/// `deinit`, which waits for the thread, so no call can reach a fake being freed.
final class FakeServerLifetime: @unchecked Sendable {
    private let lock = NSLock()
    private var thread: ServerThread?

    /// Serves on `bus` from a thread of its own; `setUp` runs there (export, request the name).
    init(bus: PrivateBus, setUp: @escaping @Sendable (DBusConnection, DBusObjectServer) throws -> Void) throws {
        thread = try ServerThread(address: bus.address) { connection, objects, _ in try setUp(connection, objects) }
    }

    private var current: ServerThread? { lock.lock(); defer { lock.unlock() }; return thread }

    /// Runs `work` on the server thread with its object server (nothing once stopped).
    func withObjects(_ work: @escaping @Sendable (DBusObjectServer) -> Void) {
        current?.withObjects(work)
    }

    /// A barrier: true once every call the daemon sent before it answered a Ping sent now has
    /// been handled.
    func syncWithDaemon() -> Bool { current?.sync(with: DaemonProcess.busName) ?? false }

    /// Stops serving and closes the connection, which releases the name.
    func stop() {
        lock.lock(); let running = thread; thread = nil; lock.unlock()
        running?.stop()
    }
}
