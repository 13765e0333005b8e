import Foundation
import DBus

/// A connection, its object server and its event loop living on a thread of their own, as
/// in the daemon: the fake servers of the tests and the benchmark (a notification server, a
/// tray watcher, a job server) run on one; the test thread reaches it over the bus or `post`.
public final class ServerThread: @unchecked Sendable {
    public let uniqueName: String
    private let remote: EventLoopRemote
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = LockedBox(false)
    private let objects = WeakObjectServer()

    /// Starts the thread and runs `setup` on it before the loop; throws what setup threw.
    public init(address: String,
         setup: @escaping @Sendable (DBusConnection, DBusObjectServer, EventLoop) throws -> Void) throws {
        let ready = DispatchSemaphore(value: 0)
        let outcome = LockedBox<Result<(String, EventLoopRemote), ServerThreadError>?>(nil)
        let finished = finished
        let objects = objects
        let thread = Thread {
            do {
                let connection = try DBusConnection(address: address)
                let loop = try EventLoop()
                let server = DBusObjectServer(connection: connection)
                connection.attach(to: loop)
                objects.server = server
                objects.connection = connection
                try setup(connection, server, loop)
                outcome.value = .success((connection.uniqueName, loop.remote))
                ready.signal()
                loop.run()
                withExtendedLifetime(server) {}
            } catch {
                outcome.value = .failure(ServerThreadError(description: "\(error)"))
                ready.signal()
            }
            finished.signal()
        }
        thread.start()
        ready.wait()
        switch outcome.value {
        case .success(let (name, remote))?:
            uniqueName = name
            self.remote = remote
        case .failure(let error)?:
            throw error
        case nil:
            throw ServerThreadError(description: "server thread did not start")
        }
    }

    /// Runs `work` on the server thread.
    public func post(_ work: @escaping @Sendable () -> Void) { remote.post(work) }

    /// Runs `work` on the server thread with its object server (to emit a signal, say), unless
    /// the server has stopped.
    public func withObjects(_ work: @escaping @Sendable (DBusObjectServer) -> Void) {
        let objects = objects
        remote.post { if let server = objects.server { work(server) } }
    }

    /// A barrier: returns once this thread has handled every message `destination` sent it
    /// before `destination` answered a Ping sent now (false when no answer came in `timeout`
    /// seconds, or the server has stopped). The bus keeps the messages of one sender in order,
    /// so "the daemon sent nothing more" is proven by its reply, not by waiting a while.
    public func sync(with destination: String, timeout: Double = 10) -> Bool {
        let answered = DispatchSemaphore(value: 0)
        let objects = objects
        remote.post {
            guard let connection = objects.connection else { return }
            connection.callMethodAsync(destination: destination, path: "/", interface: "org.freedesktop.DBus.Peer",
                                       member: "Ping") { _ in answered.signal() }
        }
        return answered.wait(timeout: .now() + timeout) == .success
    }

    /// Stops the loop and waits for the thread to finish.
    public func stop() {
        guard !stopped.value else { return }
        stopped.value = true
        remote.stop()
        finished.wait()
    }

    deinit { stop() }
}

/// Why a server thread could not start.
public struct ServerThreadError: Error, CustomStringConvertible {
    public let description: String
}

/// A value other threads may set while the loop thread reads it.
public final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    public init(_ value: Value) { stored = value }
    public var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}

/// Lets work posted to the server thread reach its object server and connection without
/// owning them: the thread's own locals own both, and free them (releasing the bus names) when
/// the loop returns. Only read on the server thread.
final class WeakObjectServer: @unchecked Sendable {
    weak var server: DBusObjectServer?
    weak var connection: DBusConnection?
}
