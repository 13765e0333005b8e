import Foundation
import Testing
import DBus
import TestSupport

/// Introspection XML derived from the tables, and export-time checks of the tables.
@Suite(.timeLimit(.minutes(5))) struct IntrospectionTests {
    let bus: PrivateBus
    let connection: DBusConnection
    let server: DBusObjectServer

    init() throws {
        bus = try PrivateBus()
        connection = try DBusConnection(address: bus.address)
        server = DBusObjectServer(connection: connection)
    }

    private static var sample: DBusInterface { DBusInterface(name: "org.example.Sample", methods: [
        DBusMethod("Start", inputs: [DBusArgument("kind", "s"), DBusArgument("state", "a{sv}")],
                   outputs: [DBusArgument("id", "s"), DBusArgument("path", "o")]) { _ in [] },
        DBusMethod("Reset") { _ in [] },
    ], properties: [
        DBusProperty("Enabled", "b", access: .readwrite, get: { .boolean(true) }, set: { _ in }),
        DBusProperty("Secret", "s", emitsChange: .invalidates, get: { .string("") }),
        DBusProperty("Version", "s", emitsChange: .const, get: { .string("1") }),
    ], signals: [
        DBusSignal("Ended", [DBusArgument("id", "s"), DBusArgument("reason", "s")]),
    ]) }

    @Test func xmlIsExactlyTheDeclaredTablesThenTheStandardInterfaces() throws {
        try server.export("/org/example/Sample", [Self.sample])
        try server.export("/org/example/Sample/child/a", [])
        let expected = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
          <interface name="org.example.Sample">
            <method name="Start">
              <arg name="kind" type="s" direction="in"/>
              <arg name="state" type="a{sv}" direction="in"/>
              <arg name="id" type="s" direction="out"/>
              <arg name="path" type="o" direction="out"/>
            </method>
            <method name="Reset"/>
            <signal name="Ended">
              <arg name="id" type="s"/>
              <arg name="reason" type="s"/>
            </signal>
            <property name="Enabled" type="b" access="readwrite"/>
            <property name="Secret" type="s" access="read">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="invalidates"/>
            </property>
            <property name="Version" type="s" access="read">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
            </property>
          </interface>
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect">
              <arg name="xml_data" type="s" direction="out"/>
            </method>
          </interface>
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="property_name" type="s" direction="in"/>
              <arg name="value" type="v" direction="out"/>
            </method>
            <method name="GetAll">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="properties" type="a{sv}" direction="out"/>
            </method>
            <method name="Set">
              <arg name="interface_name" type="s" direction="in"/>
              <arg name="property_name" type="s" direction="in"/>
              <arg name="value" type="v" direction="in"/>
            </method>
            <signal name="PropertiesChanged">
              <arg name="interface_name" type="s"/>
              <arg name="changed_properties" type="a{sv}"/>
              <arg name="invalidated_properties" type="as"/>
            </signal>
          </interface>
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
            <method name="GetMachineId">
              <arg name="machine_uuid" type="s" direction="out"/>
            </method>
          </interface>
          <node name="child"/>
        </node>

        """
        #expect(server.introspectionXML(path: "/org/example/Sample") == expected)
    }

    @Test func intermediateNodesListTheirChildren() throws {
        try server.export("/org/example/Sample", [Self.sample])
        try server.export("/org/other", [])
        let root = server.introspectionXML(path: "/")
        #expect(root.contains("<node name=\"org\"/>"))
        #expect(root.contains("org.freedesktop.DBus.Introspectable"))
        #expect(!root.contains("org.freedesktop.DBus.Properties"))
        let middle = server.introspectionXML(path: "/org")
        #expect(middle.contains("  <node name=\"example\"/>\n  <node name=\"other\"/>\n"))
        #expect(!server.introspectionXML(path: "/org/example").contains("org.example.Sample"))
    }

    @Test func objectManagerAppearsOnlyWhereEnabled() throws {
        try server.export("/org/example/Sample", [Self.sample])
        server.enableObjectManager(at: "/org/example")
        #expect(server.introspectionXML(path: "/org/example").contains("org.freedesktop.DBus.ObjectManager"))
        #expect(!server.introspectionXML(path: "/org/example/Sample").contains("org.freedesktop.DBus.ObjectManager"))
    }

    /// Tables that break one rule each.
    private static func invalidTable(_ index: Int) -> DBusInterface {
        switch index {
        case 0: DBusInterface(name: "no-dots")
        case 1: DBusInterface(name: "org.example.X", methods: [DBusMethod("Bad-Name") { _ in [] }])
        case 2: DBusInterface(name: "org.example.X", methods: [DBusMethod("M", inputs: [DBusArgument("a", "ss")]) { _ in [] }])
        case 3: DBusInterface(name: "org.example.X", properties: [DBusProperty("P", "a{", get: { .string("") })])
        case 4: DBusInterface(name: "org.example.X", signals: [DBusSignal("S"), DBusSignal("S")])
        default: DBusInterface(name: "org.freedesktop.DBus.Properties")
        }
    }

    @Test(arguments: 0..<6)
    func invalidTablesAreRefusedAtExport(index: Int) {
        #expect(throws: DBusError.self) { try server.export("/org/example/X", [Self.invalidTable(index)]) }
        #expect(server.introspectionXML(path: "/").contains("<node name=") == false)
    }

    @Test func pathsAreValidatedAndNotExportedTwice() throws {
        #expect(throws: DBusError.self) { try server.export("not/a/path", []) }
        try server.export("/org/example/Sample", [Self.sample])
        #expect(throws: DBusError.objectPathInUse("an object is already exported at /org/example/Sample")) {
            try server.export("/org/example/Sample", [])
        }
        server.unexport("/org/example/Sample")
        try server.export("/org/example/Sample", [])
    }

    @Test func busctlParsesTheServedXML() throws {
        try server.export("/org/example/Sample", [Self.sample])
        let loop = try EventLoop()
        connection.attach(to: loop)
        let remote = loop.remote
        let output = LockedBox<CommandResult?>(nil)
        let address = bus.address
        let name = connection.uniqueName
        Thread.detachNewThread {
            output.value = try? runCommand("busctl", ["--address=\(address)", "introspect", name, "/org/example/Sample"],
                                           timeout: 10)
            remote.post {}
        }
        #expect(loop.run(until: { output.value != nil }, timeout: 15))
        let text = output.value?.stdout ?? ""
        #expect(text.contains(".Start"))
        #expect(text.contains("sa{sv}"))
        #expect(text.contains(".Enabled"))
        #expect(text.contains("emits-invalidation"))
    }
}
