import Foundation
import DBus

/// A connection, its object server and its event loop living on a thread of their own, as
/// in the daemon; the test thread talks to it over the bus only.
final class ServerThread: @unchecked Sendable {
    let uniqueName: String
    private let remote: EventLoopRemote
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = LockedBox(false)

    /// Starts the thread and runs `setup` on it before the loop; throws what setup threw.
    init(address: String,
         setup: @escaping @Sendable (DBusConnection, DBusObjectServer, EventLoop) throws -> Void) throws {
        let ready = DispatchSemaphore(value: 0)
        let outcome = LockedBox<Result<(String, EventLoopRemote), ServerThreadError>?>(nil)
        let finished = finished
        let thread = Thread {
            do {
                let connection = try DBusConnection(address: address)
                let loop = try EventLoop()
                let server = DBusObjectServer(connection: connection)
                connection.attach(to: loop)
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
    func post(_ work: @escaping @Sendable () -> Void) { remote.post(work) }

    /// Stops the loop and waits for the thread to finish.
    func stop() {
        guard !stopped.value else { return }
        stopped.value = true
        remote.stop()
        finished.wait()
    }

    deinit { stop() }
}

/// Why a server thread could not start.
struct ServerThreadError: Error, CustomStringConvertible {
    let description: String
}
