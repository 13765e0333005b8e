import DBus
import Foundation
import TestSupport

/// A StatusNotifierWatcher of our own on the private bus: owns `org.kde.StatusNotifierWatcher`,
/// serves `/StatusNotifierWatcher` on its own thread and records every registration, so tests
/// can see the daemon's tray item register (and register again with a replacement watcher).
final class TestStatusNotifierWatcher: @unchecked Sendable {
    static let name = "org.kde.StatusNotifierWatcher"

    /// One RegisterStatusNotifierItem call: who sent it and the service it named.
    struct Registration: Equatable {
        let sender: String
        let service: String
    }

    private let lock = NSLock()
    private var recorded: [Registration] = []
    private var running: WatcherLoop?

    init(bus: PrivateBus) throws {
        let ready = DispatchSemaphore(value: 0)
        let address = bus.address
        let outcome = StartOutcome()
        let owner = WeakWatcher(self)
        let thread = Thread {
            do {
                let loop = try EventLoop()
                let connection = try DBusConnection(address: address)
                connection.attach(to: loop)
                let objects = DBusObjectServer(connection: connection)
                try objects.export("/StatusNotifierWatcher", [Self.interface(owner)])
                guard try connection.requestName(Self.name, flags: [.doNotQueue]) == .primaryOwner else {
                    throw DBusError.failed("\(Self.name) is already owned")
                }
                outcome.loop = WatcherLoop(loop: loop, connection: connection)
                ready.signal()
                loop.run()
                outcome.loop = nil  // the last references: the connection closes and the name is released
            } catch {
                outcome.error = error
                ready.signal()
            }
        }
        thread.start()
        ready.wait()
        if let error = outcome.error { throw error }
        running = outcome.loop
    }

    private static func interface(_ owner: WeakWatcher) -> DBusInterface {
        DBusInterface(name: name, methods: [
            DBusMethod("RegisterStatusNotifierItem", inputs: [DBusArgument("service", "s")]) { call throws(DBusError) in
                owner.value?.record(Registration(sender: call.sender ?? "", service: call.arguments.first?.string ?? ""))
                return []
            },
            DBusMethod("RegisterStatusNotifierHost", inputs: [DBusArgument("service", "s")]) { _ throws(DBusError) in [] },
        ], properties: [
            DBusProperty("IsStatusNotifierHostRegistered", "b", get: { .boolean(true) }),
            DBusProperty("ProtocolVersion", "i", get: { .int32(0) }),
        ])
    }

    private func record(_ registration: Registration) { lock.lock(); recorded.append(registration); lock.unlock() }

    /// Every registration so far.
    var registrations: [Registration] { lock.lock(); defer { lock.unlock() }; return recorded }

    /// Waits until at least `count` registrations arrived.
    func waitForRegistrations(_ count: Int, timeout: Double = 5) -> Bool {
        waitUntil(timeout: timeout) { registrations.count >= count }
    }

    /// Stops serving and closes the connection, which releases the name (a watcher exiting).
    func stop() {
        lock.lock(); let current = running; running = nil; lock.unlock()
        guard let current else { return }
        let done = DispatchSemaphore(value: 0)
        current.loop.post {
            current.connection.flush()
            current.loop.stop()
            done.signal()
        }
        done.wait()
    }

    deinit { stop() }
}

/// The watcher thread's loop and connection, reached from the test thread only through `post`.
private struct WatcherLoop: @unchecked Sendable {
    let loop: EventLoop
    let connection: DBusConnection
}

/// Lets the watcher thread call back into its owner without retaining it.
private final class WeakWatcher: @unchecked Sendable {
    weak var value: TestStatusNotifierWatcher?
    init(_ value: TestStatusNotifierWatcher) { self.value = value }
}

/// What the watcher thread hands back once it is serving (or why it is not).
private final class StartOutcome: @unchecked Sendable {
    var loop: WatcherLoop?
    var error: Error?
}
