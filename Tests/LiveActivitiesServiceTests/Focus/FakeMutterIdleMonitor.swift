import DBus
import Foundation
import TestSupport

/// GNOME's `org.gnome.Mutter.IdleMonitor` as a test drives it, on the world's private bus: it
/// hands out watch ids like Mutter (`AddIdleWatch`, `AddUserActiveWatch`, `RemoveWatch`) and
/// fires `WatchFired` when the test says the user went idle or came back.
final class FakeMutterIdleMonitor: @unchecked Sendable {
    static let name = "org.gnome.Mutter.IdleMonitor"
    static let path = "/org/gnome/Mutter/IdleMonitor/Core"

    /// A watch the daemon holds.
    struct Watch: Equatable {
        let id: UInt32
        /// The idle interval in ms; nil for a user-active watch.
        let idleMilliseconds: UInt64?
    }

    private let watches = LockedBox<[Watch]>([])
    private let removed = LockedBox<[UInt32]>([])
    private let refusals = LockedBox(0)
    private let attempts = LockedBox(0)
    private var thread: ServerThread?

    init(bus: PrivateBus) throws {
        let watches = watches, removed = removed, refusals = refusals, attempts = attempts
        thread = try ServerThread(address: bus.address) { connection, objects, _ in
            var nextID: UInt32 = 0
            try objects.export(Self.path, [DBusInterface(name: Self.name, methods: [
                DBusMethod("AddIdleWatch", inputs: [DBusArgument("interval", "t")], outputs: [DBusArgument("id", "u")]) { call throws(DBusError) in
                    attempts.value += 1
                    if refusals.value > 0 {
                        refusals.value -= 1
                        throw .failed("the test refuses this watch")
                    }
                    nextID += 1
                    let interval = UInt64(truncatingIfNeeded: call.arguments.first?.integer ?? 0)
                    watches.value.append(Watch(id: nextID, idleMilliseconds: interval))
                    return [.uint32(nextID)]
                },
                DBusMethod("AddUserActiveWatch", outputs: [DBusArgument("id", "u")]) { _ in
                    nextID += 1
                    watches.value.append(Watch(id: nextID, idleMilliseconds: nil))
                    return [.uint32(nextID)]
                },
                DBusMethod("RemoveWatch", inputs: [DBusArgument("id", "u")]) { call in
                    let id = UInt32(truncatingIfNeeded: call.arguments.first?.integer ?? 0)
                    watches.value.removeAll { $0.id == id }
                    removed.value.append(id)
                    return []
                },
                DBusMethod("GetIdletime", outputs: [DBusArgument("idletime", "t")]) { _ in [.uint64(0)] },
            ], signals: [DBusSignal("WatchFired", [DBusArgument("id", "u")])])])
            _ = try connection.requestName(Self.name, flags: [.doNotQueue])
        }
    }

    /// The next `count` AddIdleWatch calls fail.
    func refuseIdleWatches(_ count: Int) { refusals.value = count }

    /// How many AddIdleWatch calls came, refused ones included.
    var idleWatchAttempts: Int { attempts.value }

    /// The watches held now.
    var current: [Watch] { watches.value }

    /// The idle watch the daemon holds, once it holds one (waits up to 5 s).
    func idleWatch() -> Watch? {
        var found: Watch?
        _ = waitUntil(timeout: 5) {
            found = watches.value.first { $0.idleMilliseconds != nil }
            return found != nil
        }
        return found
    }

    /// The user-active watch the daemon holds, once it holds one (waits up to 5 s).
    func userActiveWatch() -> Watch? {
        var found: Watch?
        _ = waitUntil(timeout: 5) {
            found = watches.value.first { $0.idleMilliseconds == nil }
            return found != nil
        }
        return found
    }

    /// Emits `WatchFired(id)`, as Mutter does when the watch's condition is met (a user-active
    /// watch is then gone, as in Mutter).
    func fire(_ watch: Watch) {
        if watch.idleMilliseconds == nil { watches.value.removeAll { $0.id == watch.id } }
        thread?.withObjects { objects in
            try? objects.emit(path: Self.path, interface: Self.name, signal: "WatchFired", [.uint32(watch.id)])
        }
    }

    deinit { thread?.stop() }
}
