import DBus
import Foundation
import TestSupport

/// `org.freedesktop.ScreenSaver` as KDE and others offer it, for the idle tests: it answers
/// `GetSessionIdleTime` with the seconds the test sets, and counts the calls (the daemon polls
/// it, so the count is the cost).
final class FakeScreenSaver: @unchecked Sendable {
    static let name = "org.freedesktop.ScreenSaver"
    private let idle = LockedBox<UInt32>(0)
    private let calls = LockedBox(0)
    private var thread: ServerThread?

    init(bus: PrivateBus) throws {
        let idle = idle, calls = calls
        thread = try ServerThread(address: bus.address) { connection, objects, _ in
            try objects.export("/org/freedesktop/ScreenSaver", [DBusInterface(name: Self.name, methods: [
                DBusMethod("GetSessionIdleTime", outputs: [DBusArgument("seconds", "u")]) { _ in
                    calls.value += 1
                    return [.uint32(idle.value)]
                },
            ])])
            _ = try connection.requestName(Self.name, flags: [.doNotQueue])
        }
    }

    /// The idle time the next calls answer, in seconds.
    func setIdle(_ seconds: UInt32) { idle.value = seconds }

    /// How many times the daemon asked.
    var callCount: Int { calls.value }

    deinit { thread?.stop() }
}
