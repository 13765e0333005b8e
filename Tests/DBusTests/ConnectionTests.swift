import Foundation
import Testing
import DBus
import TestSupport

/// Connections on a private bus: names, blocking calls, signals through match rules.
@Suite(.timeLimit(.minutes(5))) struct ConnectionTests {
    @Test func connectsAndOwnsAName() throws {
        let bus = try PrivateBus()
        let connection = try DBusConnection(address: bus.address)
        #expect(connection.uniqueName.hasPrefix(":"))
        #expect(try connection.requestName("org.example.Owner") == .primaryOwner)
        #expect(try connection.requestName("org.example.Owner") == .alreadyOwner)
        let other = try DBusConnection(address: bus.address)
        #expect(try other.requestName("org.example.Owner") == .exists)
        #expect(try other.nameHasOwner("org.example.Owner"))
        #expect(try !other.nameHasOwner("org.example.Nobody"))
    }

    @Test func badAddressIsAnError() {
        #expect(throws: DBusError.self) { try DBusConnection(address: "unix:path=/nonexistent/bus") }
    }

    @Test func errorReplyIsThrownWithItsName() throws {
        let bus = try PrivateBus()
        let connection = try DBusConnection(address: bus.address)
        do {
            _ = try connection.callMethod(destination: "org.example.Nobody", path: "/", interface: "org.example.X",
                                          member: "Y")
            Issue.record("expected a throw")
        } catch {
            #expect(error.name == "org.freedesktop.DBus.Error.ServiceUnknown")
        }
    }

    @Test func signalArrivesThroughMatchRule() throws {
        let bus = try PrivateBus()
        let sender = try DBusConnection(address: bus.address)
        let receiver = try DBusConnection(address: bus.address)
        let loop = try EventLoop()
        receiver.attach(to: loop)
        try receiver.addMatch("type='signal',interface='org.example.Events'")
        var received: [[DBusValue]] = []
        receiver.addMessageHandler { message in
            guard message.kind == .signal, message.interface == "org.example.Events" else { return false }
            received.append((try? message.arguments()) ?? [])
            #expect(message.sender == sender.uniqueName)
            return true
        }
        let signal = try DBusMessage.signal(path: "/org/example", interface: "org.example.Events", member: "Happened")
        try signal.append([.string("id1"), .vardict(["n": .uint32(3)])])
        sender.send(signal)
        sender.flush()
        #expect(loop.run(until: { received.count == 1 }, timeout: 5))
        #expect(received.first == [.string("id1"), .vardict(["n": .uint32(3)])])
    }

    @Test func disconnectIsReported() throws {
        let bus = try PrivateBus()
        let connection = try DBusConnection(address: bus.address)
        let loop = try EventLoop()
        connection.attach(to: loop)
        var disconnected = false
        connection.onDisconnect = { disconnected = true }
        bus.stop()
        #expect(loop.run(until: { disconnected }, timeout: 5))
        #expect(!connection.isConnected)
        let wakeupsAfterDisconnect = loop.wakeups
        _ = loop.run(until: { false }, timeout: 0.3)  // the subject: a measured window, in which a closed socket must not spin the loop
        #expect(loop.wakeups - wakeupsAfterDisconnect < 3)
    }
}
