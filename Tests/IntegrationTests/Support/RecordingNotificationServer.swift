import DBus
import Foundation
import TestSupport

/// A notification server of our own that records every call exactly as it arrived (ids,
/// hints with their D-Bus types, timeout, body), so tests can assert what the daemon sends.
/// It runs its own loop on its own thread and can play a user: invoke an action, close a card.
final class RecordingNotificationServer: @unchecked Sendable {
    /// One Notify call as received.
    struct NotifyCall {
        let appName: String
        let replacesID: UInt32
        let icon: String
        let summary: String
        let body: String
        let actions: [String]
        let hints: [String: DBusValue]
        let timeout: Int32
        let assignedID: UInt32
        let time: Date
    }

    private let lock = NSLock()
    private var recorded: [NotifyCall] = []
    private var closedIDs: [UInt32] = []
    private var nextID: UInt32 = 1
    private var lifetime: FakeServerLifetime?
    let name: String
    let version: String
    let capabilities: [String]

    init(bus: PrivateBus, name: String = "recorder", version: String = "1.0",
         capabilities: [String] = ["actions", "body", "body-markup", "persistence"]) throws {
        self.name = name
        self.version = version
        self.capabilities = capabilities
        let owner = WeakReference(self)
        lifetime = try FakeServerLifetime(bus: bus) { connection, objects in
            try objects.export("/org/freedesktop/Notifications", [Self.interface(owner)])
            _ = try connection.requestName("org.freedesktop.Notifications", flags: [.doNotQueue])
        }
        _ = bus.waitForOwner("org.freedesktop.Notifications")
    }

    /// The table the server thread serves. It reaches the recorder only through `owner`
    /// (weak): a Notify that arrives while the recorder is being freed (its `deinit` waits for
    /// this thread) gets id 0 instead of reading a destroyed object, which killed the whole
    /// test process before (issue 20).
    private static func interface(_ owner: WeakReference<RecordingNotificationServer>) -> DBusInterface {
        let server = owner.value
        return NotificationsInterface.make(serverName: server?.name ?? "recorder", vendor: "LiveActivities tests",
                                           version: server?.version ?? "1.0", capabilities: server?.capabilities ?? [],
                                           notify: { call in owner.value?.record(call) ?? 0 },
                                           close: { id in owner.value?.recordClose(id) })
    }

    private func recordClose(_ id: UInt32) {
        lock.lock(); closedIDs.append(id); lock.unlock()
        emit("NotificationClosed", [.uint32(id), .uint32(3)])
    }

    private func record(_ call: NotificationsInterface.NotifyArguments) -> UInt32 {
        lock.lock(); defer { lock.unlock() }
        let id: UInt32
        if call.replacesID != 0 { id = call.replacesID } else { id = nextID; nextID += 1 }
        recorded.append(NotifyCall(appName: call.appName, replacesID: call.replacesID, icon: call.icon,
                                   summary: call.summary, body: call.body, actions: call.actions,
                                   hints: call.hints, timeout: call.timeout, assignedID: id, time: Date()))
        return id
    }

    /// Every Notify so far.
    var calls: [NotifyCall] { lock.lock(); defer { lock.unlock() }; return recorded }
    var closed: [UInt32] { lock.lock(); defer { lock.unlock() }; return closedIDs }

    /// Plays a user pressing a button on notification `id`.
    func invokeAction(id: UInt32, key: String) { emit("ActionInvoked", [.uint32(id), .string(key)]) }

    /// Plays a user dismissing notification `id`.
    func closeByUser(id: UInt32) { emit("NotificationClosed", [.uint32(id), .uint32(2)]) }

    private func emit(_ signal: String, _ arguments: [DBusValue]) {
        let payload = SendableValues(arguments)
        lifetime?.withObjects { objects in
            try? objects.emit(path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
                              signal: signal, payload.values)
        }
    }

    /// Releases the name and stops the loop (as a server exiting).
    func stop() { lifetime?.stop() }

    deinit { stop() }
}


/// Signal arguments handed to the server thread (values only, never mutated).
private struct SendableValues: @unchecked Sendable {
    let values: [DBusValue]
    init(_ values: [DBusValue]) { self.values = values }
}
