import Foundation
import Testing
import DBus
import TestSupport

/// A client on the test thread calling the counter service, served from its own thread.
@Suite(.timeLimit(.minutes(5))) struct ObjectServerTests {
    let bus: PrivateBus
    let server: ServerThread
    let client: DBusConnection

    init() throws {
        bus = try PrivateBus()
        server = try ServerThread(address: bus.address) { connection, server, _ in
            try CounterService.install(connection: connection, server: server)
        }
        client = try DBusConnection(address: bus.address)
    }

    private func call(_ member: String, _ arguments: [DBusValue] = [], interface: String? = CounterService.interface,
                      path: String = CounterService.path) throws(DBusError) -> [DBusValue] {
        let message = try DBusMessage.methodCall(destination: CounterService.name, path: path,
                                                 interface: interface, member: member)
        try message.append(arguments)
        return try client.call(message, timeoutMilliseconds: 5_000).arguments()
    }

    private func expectError(_ name: String, message expected: String? = nil,
                             _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("expected \(name)")
        } catch {
            #expect((error as? DBusError)?.name == name)
            if let expected { #expect((error as? DBusError)?.message == expected) }
        }
    }

    private func property(_ name: String) throws(DBusError) -> DBusValue? {
        try call("Get", [.string(CounterService.interface), .string(name)],
                 interface: "org.freedesktop.DBus.Properties").first
    }

    @Test func methodCallGetsItsReply() throws {
        let options = DBusValue.vardict(["a": .int32(1), "b": .array(elementSignature: "s", [.string("x")])])
        #expect(try call("Echo", [.string("hello"), options]) == [.string("hello"), options])
        #expect(try call("Echo", [.string("no interface"), options], interface: nil).first == .string("no interface"))
    }

    @Test func wrongArgumentsAreInvalidArgsSayingWhatWasExpected() {
        expectError("org.freedesktop.DBus.Error.InvalidArgs", message: "Echo expects arguments (sa{sv}), got (s)") {
            _ = try call("Echo", [.string("only one")])
        }
        expectError("org.freedesktop.DBus.Error.InvalidArgs", message: "Increment expects arguments (u), got ()") {
            _ = try call("Increment")
        }
    }

    @Test func unknownNamesGetTheirStandardErrors() {
        expectError("org.freedesktop.DBus.Error.UnknownMethod") { _ = try call("NoSuchMethod") }
        expectError("org.freedesktop.DBus.Error.UnknownMethod") { _ = try call("NoSuchMethod", interface: nil) }
        expectError("org.freedesktop.DBus.Error.UnknownInterface") { _ = try call("Echo", interface: "org.example.Nope") }
        expectError("org.freedesktop.DBus.Error.UnknownObject") { _ = try call("Echo", path: "/org/example/Nothing") }
        expectError("org.freedesktop.DBus.Error.UnknownObject") { _ = try call("Echo", path: "/org/example") }
    }

    @Test func handlerErrorsBecomeErrorReplies() {
        expectError("org.example.Error.Nope", message: "nope, as asked") { _ = try call("Fail") }
        expectError("org.freedesktop.DBus.Error.Failed", message: "BadReturn returned (i) but declares (s)") {
            _ = try call("BadReturn")
        }
    }

    @Test func propertiesGetGetAllAndSet() throws {
        #expect(try property("Count") == .variant(.uint32(0)))
        let all = try call("GetAll", [.string(CounterService.interface)], interface: "org.freedesktop.DBus.Properties")
        #expect(all.first?.vardict == ["Count": .uint32(0), "Label": .string("start"), "Secret": .string("hidden"),
                                       "Fixed": .string("fixed")])
        _ = try call("Set", [.string(CounterService.interface), .string("Label"), .variant(.string("renamed"))],
                     interface: "org.freedesktop.DBus.Properties")
        #expect(try property("Label") == .variant(.string("renamed")))
    }

    @Test func propertyErrors() {
        let properties = "org.freedesktop.DBus.Properties"
        expectError("org.freedesktop.DBus.Error.PropertyReadOnly") {
            _ = try call("Set", [.string(CounterService.interface), .string("Count"), .variant(.uint32(5))],
                         interface: properties)
        }
        expectError("org.freedesktop.DBus.Error.InvalidArgs", message: "property Label expects type s, got int32 5") {
            _ = try call("Set", [.string(CounterService.interface), .string("Label"), .variant(.int32(5))],
                         interface: properties)
        }
        expectError("org.freedesktop.DBus.Error.InvalidArgs", message: "Label must not be empty") {
            _ = try call("Set", [.string(CounterService.interface), .string("Label"), .variant(.string(""))],
                         interface: properties)
        }
        expectError("org.freedesktop.DBus.Error.UnknownProperty") { _ = try property("Nope") }
        expectError("org.freedesktop.DBus.Error.UnknownInterface") {
            _ = try call("GetAll", [.string("org.example.Nope")], interface: properties)
        }
    }

    @Test func clientReceivesSignalsAndPropertiesChanged() throws {
        let loop = try EventLoop()
        client.attach(to: loop)
        try client.addMatch("type='signal',sender='\(CounterService.name)'")
        var signals: [(member: String, arguments: [DBusValue])] = []
        client.addMessageHandler { message in
            guard message.kind == .signal, message.path == CounterService.path else { return false }
            signals.append((message.member ?? "", (try? message.arguments()) ?? []))
            return true
        }
        #expect(try call("Increment", [.uint32(2)]) == [.uint32(2)])
        _ = try call("Set", [.string(CounterService.interface), .string("Label"), .variant(.string("new"))],
                     interface: "org.freedesktop.DBus.Properties")
        _ = try call("Touch")
        #expect(loop.run(until: { signals.count == 4 }, timeout: 5))
        let noInvalidations = DBusValue.array(elementSignature: "s", [])
        #expect(signals.map(\.member) == ["PropertiesChanged", "Incremented", "PropertiesChanged", "PropertiesChanged"])
        #expect(signals[0].arguments == [.string(CounterService.interface), .vardict(["Count": .uint32(2)]),
                                         noInvalidations])
        #expect(signals[1].arguments == [.uint32(2)])
        #expect(signals[2].arguments == [.string(CounterService.interface), .vardict(["Label": .string("new")]),
                                         noInvalidations])
        #expect(signals[3].arguments == [.string(CounterService.interface), .vardict(["Count": .uint32(2)]),
                                         .array(elementSignature: "s", [.string("Secret")])])
    }

    @Test func objectManagerReportsChildrenAndAnnouncesThem() throws {
        let loop = try EventLoop()
        client.attach(to: loop)
        try client.addMatch("type='signal',interface='org.freedesktop.DBus.ObjectManager'")
        var announcements: [(member: String, arguments: [DBusValue])] = []
        client.addMessageHandler { message in
            guard message.interface == "org.freedesktop.DBus.ObjectManager" else { return false }
            announcements.append((message.member ?? "", (try? message.arguments()) ?? []))
            return true
        }
        let childPath = CounterService.path + "/children/one"
        #expect(try call("AddChild", [.string("one")]) == [.objectPath(childPath)])
        let managed = try call("GetManagedObjects", interface: "org.freedesktop.DBus.ObjectManager")
        guard case .dictionary("o", "a{sa{sv}}", let objects)? = managed.first else {
            Issue.record("unexpected reply \(managed)")
            return
        }
        #expect(objects.map(\.key) == [.objectPath(childPath)])
        guard case .dictionary(_, _, let interfaces) = objects[0].value else { Issue.record("not a dict"); return }
        #expect(interfaces.map(\.key.string) == [CounterService.childInterface, "org.freedesktop.DBus.Introspectable",
                                                 "org.freedesktop.DBus.Properties", "org.freedesktop.DBus.Peer"])
        #expect(interfaces[0].value.vardict == ["Name": .string("one")])
        _ = try call("RemoveChild", [.string("one")])
        #expect(loop.run(until: { announcements.count == 2 }, timeout: 5))
        #expect(announcements.map(\.member) == ["InterfacesAdded", "InterfacesRemoved"])
        #expect(announcements.first?.arguments.first == .objectPath(childPath))
        #expect(announcements.last?.arguments == [.objectPath(childPath), .array(elementSignature: "s", [
            .string(CounterService.childInterface), .string("org.freedesktop.DBus.Introspectable"),
            .string("org.freedesktop.DBus.Properties"), .string("org.freedesktop.DBus.Peer"),
        ])])
        let after = try call("GetManagedObjects", interface: "org.freedesktop.DBus.ObjectManager")
        #expect(after == [.dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", [])])
    }

    @Test func introspectIsAnsweredForObjectsAndTheNodesAboveThem() throws {
        let introspectable = "org.freedesktop.DBus.Introspectable"
        let xml = try call("Introspect", interface: introspectable).first?.string ?? ""
        #expect(xml.hasPrefix("<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\""))
        #expect(xml.contains("<interface name=\"org.example.Counter\">"))
        #expect(xml.contains("<method name=\"Echo\">"))
        #expect(xml.contains("<interface name=\"org.freedesktop.DBus.ObjectManager\">"))
        let above = try call("Introspect", interface: introspectable, path: "/org/example").first?.string ?? ""
        #expect(above.contains("<node name=\"Counter\"/>"))
        #expect(!above.contains("org.example.Counter"))
        let root = try call("Introspect", interface: introspectable, path: "/").first?.string ?? ""
        #expect(root.contains("<node name=\"org\"/>"))
    }

    @Test func peerAnswersPingAndMachineId() throws {
        #expect(try call("Ping", interface: "org.freedesktop.DBus.Peer") == [])
        #expect(try call("Ping", interface: nil) == [])
        let id = try call("GetMachineId", interface: "org.freedesktop.DBus.Peer").first?.string ?? ""
        #expect(id.count == 32)
    }

    @Test func noReplyIsSentWhenNoneIsExpected() throws {
        let loop = try EventLoop()
        client.attach(to: loop)
        var replies: [UInt32] = []
        client.addMessageHandler { message in
            if message.kind == .methodReturn || message.kind == .error { replies.append(message.replySerial) }
            return false
        }
        let message = try DBusMessage.methodCall(destination: CounterService.name, path: CounterService.path,
                                                 interface: CounterService.interface, member: "Increment")
        try message.append([.uint32(7)])
        message.noReplyExpected = true
        client.send(message)
        let failing = try DBusMessage.methodCall(destination: CounterService.name, path: CounterService.path,
                                                 interface: CounterService.interface, member: "Fail")
        failing.noReplyExpected = true
        client.send(failing)
        #expect(try property("Count") == .variant(.uint32(7)))
        _ = loop.run(until: { !replies.isEmpty }, timeout: 0.3)
        #expect(replies.isEmpty)
    }
}
