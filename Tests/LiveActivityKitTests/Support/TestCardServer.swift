import DBus
import Foundation
import TestSupport

/// A notification server of the test's own: records the last card of every notification id
/// and plays a user pressing a card button (ActionInvoked).
final class TestCardServer: @unchecked Sendable {
    struct Card: Sendable {
        let id: UInt32
        let summary: String
        let body: String
        let actions: [String]
    }

    private let lock = NSLock()
    private var cards: [UInt32: Card] = [:]
    private var nextID: UInt32 = 1
    private var thread: ServerThread?

    init(bus: PrivateBus) throws {
        let owner = WeakReference(self)
        thread = try ServerThread(address: bus.address) { connection, objects, _ in
            try objects.export("/org/freedesktop/Notifications", [NotificationsInterface.make(
                serverName: "kit-test", vendor: "LiveActivities tests", version: "1.0",
                capabilities: ["actions", "body", "persistence"],
                notify: { owner.value?.record($0) ?? 0 }, close: { _ in })])
            _ = try connection.requestName("org.freedesktop.Notifications", flags: [.doNotQueue])
        }
        _ = bus.waitForOwner("org.freedesktop.Notifications")
    }

    private func record(_ call: NotificationsInterface.NotifyArguments) -> UInt32 {
        lock.lock()
        defer { lock.unlock() }
        let id = call.replacesID != 0 ? call.replacesID : nextID
        if call.replacesID == 0 { nextID += 1 }
        cards[id] = Card(id: id, summary: call.summary, body: call.body, actions: call.actions)
        return id
    }

    /// The latest card of every notification id.
    var all: [Card] {
        lock.lock()
        defer { lock.unlock() }
        return cards.values.sorted { $0.id < $1.id }
    }

    /// The latest card whose summary contains `text`.
    func card(titled text: String) -> Card? {
        lock.lock()
        defer { lock.unlock() }
        return cards.values.filter { $0.summary.contains(text) }.max { $0.id < $1.id }
    }

    /// Plays a user pressing the button `key` on card `id`.
    func press(_ key: String, on id: UInt32) {
        thread?.withObjects { objects in
            try? objects.emit(path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
                              signal: "ActionInvoked", [.uint32(id), .string(key)])
        }
    }

    deinit { thread?.stop() }
}

