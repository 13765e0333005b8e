import Foundation
import Testing
import DBus
import Notifications
import TestSupport

/// The answer to a routine replace (sent without blocking, `RoutineReplace`) still counts: a
/// server that no longer has the card answers with a new id, and the card follows it.
/// Part of `CardPresenterDunstTests`, a serialized suite: libnotify's state and the session bus
/// address (an environment variable) are per process, and as a suite of its own this one ran
/// beside it in one shard of `scripts/test` and the two talked to each other's servers (CI).
extension CardPresenterDunstTests {
    /// A notification server that forgets card 1 after showing it: the first replace of it
    /// gets a new id (as GNOME Shell answers a replace of an id it no longer has).
    final class ForgetfulServer: @unchecked Sendable {
        let replaces = LockedBox<[UInt32]>([])
        private var thread: ServerThread?

        init(bus: PrivateBus) throws {
            let replaces = replaces
            let nextID = LockedBox<UInt32>(1)
            thread = try ServerThread(address: bus.address) { connection, objects, _ in
                try objects.export(NotificationsInterface.path, [NotificationsInterface.make(
                    serverName: "forgetful", vendor: "tests", version: "1", capabilities: ["body", "actions"],
                    notify: { call in
                        replaces.value.append(call.replacesID)
                        guard call.replacesID == 0 || call.replacesID == 1 else { return call.replacesID }
                        defer { nextID.value += 1 }
                        return nextID.value
                    }, close: { _ in })])
                _ = try connection.requestName(NotificationsInterface.name, flags: [.doNotQueue])
            }
        }

        func stop() { thread?.stop() }
    }

    @Test func aReplaceAnsweredWithANewIdMovesTheCardToIt() throws {
        let bus = try PrivateBus()
        let server = try ForgetfulServer(bus: bus)
        let events = PresenterEvents()
        let presenter = startPresenter(on: bus, events: events, minimumInterval: 0.05)
        let reported = LockedBox<[UInt32]>([])
        presenter.onNotificationID = { _, id in reported.value.append(id) }
        defer { presenter.stop(); server.stop(); bus.stop() }

        presenter.show(id: "focus", card: Card(appName: "Focus", title: "25:00"))
        #expect(settled(presenter))
        presenter.show(id: "focus", card: Card(appName: "Focus", title: "24:59"))  // replaces 1, answered 2
        #expect(settled(presenter))
        presenter.show(id: "focus", card: Card(appName: "Focus", title: "24:58"))  // replaces 2
        #expect(settled(presenter))

        #expect(server.replaces.value == [0, 1, 2])
        #expect(reported.value == [1, 2], "the daemon is told the card's new id, to take it back after a restart")
    }
}
