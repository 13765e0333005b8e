import DBus
import Dispatch
import Foundation
import LiveActivitiesContract
import ThreadSupport

/// The one connection of a process to `liveactivityd`: a D-Bus connection and its event loop
/// on a thread of their own (the DBus target's connections are single-threaded), reached from
/// any thread by posting work to the loop. Calls wait on a semaphore (`request`, `activities`)
/// or on a continuation (`update`, `end`); the daemon's signals go to `DaemonSignalHub`.
final class DaemonLink: @unchecked Sendable {
    static let busName = BusNames.busName
    static let managerPath = BusNames.managerPath
    static let managerInterface = BusNames.managerInterface
    static let propertiesInterface = "org.freedesktop.DBus.Properties"

    /// The bus to use instead of `DBUS_SESSION_BUS_ADDRESS` (tests run the daemon on a private bus).
    @TaskLocal static var busAddress: String?
    private static let links = LinkTable()

    /// The link for the current bus, connecting on first use; `daemonUnavailable` without a bus.
    static func current() throws(ActivityAuthorizationError) -> DaemonLink {
        try links.link(for: busAddress)
    }

    let hub = DaemonSignalHub()
    private let remote: EventLoopRemote
    private let connection: LoopBound<DBusConnection>

    /// Connects on a new thread and waits until the loop runs with the signal match installed.
    init(address: String?) throws(ActivityAuthorizationError) {
        let ready = DispatchSemaphore(value: 0)
        let outcome = SetupOutcome()
        let hub = hub
        let started = DetachedThread.start {
            let loop: EventLoop
            let connection: DBusConnection
            do throws(DBusError) {
                loop = try EventLoop()
                if let address {
                    connection = try DBusConnection(address: address)
                } else {
                    connection = try DBusConnection.sessionBus()
                }
                connection.attach(to: loop)
                try connection.addMatch(DaemonSignalHub.signalRule)
            } catch {
                outcome.error = error
                ready.signal()
                return
            }
            connection.addMessageHandler { message in
                hub.dispatch(message)
                return false
            }
            connection.onDisconnect = { loop.stop() }
            outcome.connected = (loop.remote, LoopBound(connection))
            ready.signal()
            loop.run()
            hub.disconnected()
            withExtendedLifetime(connection) {}
        }
        guard started else { throw ActivityAuthorizationError(.daemonUnavailable, "could not start the D-Bus thread") }
        ready.wait()
        guard let (remote, connection) = outcome.connected else {
            throw ActivityAuthorizationError(.daemonUnavailable,
                                             "cannot connect to the session bus: \(outcome.error?.message ?? "unknown error")")
        }
        self.remote = remote
        self.connection = connection
    }

    var isConnected: Bool { hub.isConnected }

    /// Calls a method of the daemon without waiting; `completion` runs once, on the loop thread.
    func callAsync(_ member: String, _ arguments: [DBusValue], path: String = managerPath,
                   interface: String = managerInterface,
                   completion: @escaping @Sendable (Result<[DBusValue], ActivityAuthorizationError>) -> Void) {
        guard let ticket = hub.register(completion) else {
            completion(.failure(ActivityAuthorizationError(.daemonUnavailable, "the session bus connection was lost")))
            return
        }
        let connection = connection
        let hub = hub
        remote.post {
            connection.value.callMethodAsync(destination: Self.busName, path: path, interface: interface, member: member,
                                             arguments: arguments, timeoutMilliseconds: 10_000) { result in
                hub.complete(ticket, result.mapError(DaemonErrors.translate))
            }
        }
    }

    /// Calls a method and waits for the reply (for ActivityKit's synchronous API).
    func call(_ member: String, _ arguments: [DBusValue], path: String = managerPath,
              interface: String = managerInterface) throws(ActivityAuthorizationError) -> [DBusValue] {
        let done = DispatchSemaphore(value: 0)
        let box = ReplyBox()
        callAsync(member, arguments, path: path, interface: interface) { result in
            box.result = result
            done.signal()
        }
        done.wait()
        return try (box.result ?? .failure(.daemonUnavailable)).get()
    }

    /// Calls a method and suspends until the reply.
    func call(_ member: String, _ arguments: [DBusValue], path: String = managerPath,
              interface: String = managerInterface) async throws(ActivityAuthorizationError) -> [DBusValue] {
        let result = await withCheckedContinuation { continuation in
            callAsync(member, arguments, path: path, interface: interface) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Adds a match rule on the loop thread and waits for the bus to accept it.
    func addMatch(_ rule: String) {
        let done = DispatchSemaphore(value: 0)
        let connection = connection
        remote.post {
            try? connection.value.addMatch(rule)
            done.signal()
        }
        if hub.isConnected { _ = done.wait(timeout: .now() + 10) }
    }
}

/// What the link's thread reports back while `DaemonLink.init` waits.
private final class SetupOutcome: @unchecked Sendable {
    var connected: (EventLoopRemote, LoopBound<DBusConnection>)?
    var error: DBusError?
}

/// The reply a blocking call waits for.
private final class ReplyBox: @unchecked Sendable {
    var result: Result<[DBusValue], ActivityAuthorizationError>?
}

/// One link per bus address for the life of the process; a link whose bus went away is replaced.
private final class LinkTable: @unchecked Sendable {
    private let lock = NSLock()
    private var links: [String: DaemonLink] = [:]

    func link(for address: String?) throws(ActivityAuthorizationError) -> DaemonLink {
        lock.lock()
        defer { lock.unlock() }
        let key = address ?? ""
        if let existing = links[key], existing.isConnected { return existing }
        let created = try DaemonLink(address: address)
        links[key] = created
        return created
    }
}
