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
    private var lifetime: FakeServerLifetime?

    init(bus: PrivateBus) throws {
        let owner = WeakReference(self)
        lifetime = try FakeServerLifetime(bus: bus) { connection, objects in
            try objects.export("/StatusNotifierWatcher", [Self.interface(owner)])
            guard try connection.requestName(Self.name, flags: [.doNotQueue]) == .primaryOwner else {
                throw DBusError.failed("\(Self.name) is already owned")
            }
        }
    }

    private static func interface(_ owner: WeakReference<TestStatusNotifierWatcher>) -> DBusInterface {
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

    /// A barrier: true once every call the daemon sent before it answered a Ping sent now has
    /// been recorded.
    func syncWithDaemon() -> Bool { lifetime?.syncWithDaemon() ?? false }

    /// Stops serving and closes the connection, which releases the name (a watcher exiting).
    func stop() { lifetime?.stop() }

    deinit { stop() }
}

