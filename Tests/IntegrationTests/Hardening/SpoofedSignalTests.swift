import DBus
import Foundation
import Testing
import TestSupport

/// Sender checks (issue 14, fault 6): a plain client that sends `NameOwnerChanged` straight to
/// the daemon, claiming to be the KDE job server, gets nothing: no `requestView` with the
/// card's title, and so no way to cancel the activity.
@Suite("Spoofed signals", .timeLimit(.minutes(5)))
struct SpoofedSignalTests {
    @Test func aSpoofedNameOwnerChangedDoesNotMakeAClientTheJobServer() throws {
        let f = try DaemonFixture(recorderName: "plasma")
        _ = try f.client.start("generic", state: ["title": .string("Secret title"), "progress": .double(0.4)])

        let spoofer = try TestClient(bus: f.bus, recordSignals: false)
        var requests: [String] = []
        spoofer.connection.addMessageHandler { message in
            if message.kind == .methodCall, let member = message.member { requests.append(member) }
            return false
        }
        let owner = try spoofer.connection.callMethod(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                      interface: "org.freedesktop.DBus", member: "GetNameOwner",
                                                      arguments: [.string(TestClient.busName)]).first?.string
        let daemon = try #require(owner)
        let spoof = try DBusMessage.signal(path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                           member: "NameOwnerChanged")
        try spoof.append([.string("org.kde.JobViewServer"), .string(""), .string(spoofer.connection.uniqueName)])
        spoof.destination = daemon
        spoofer.connection.send(spoof)

        // A call sent after the signal: its reply comes after anything the daemon sent while
        // handling the signal, so once it is in, a requestView would have been seen.
        var replied = false
        spoofer.connection.callMethodAsync(destination: daemon, path: TestClient.path, interface: TestClient.interface,
                                           member: "List") { _ in replied = true }
        #expect(spoofer.waitFor { replied })
        #expect(requests.isEmpty, "the spoofer was asked for: \(requests)")
    }
}
