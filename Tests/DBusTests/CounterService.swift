import DBus

/// The service the object-server tests call: a counter with every kind of method,
/// property and signal, plus children for the ObjectManager.
enum CounterService {
    static let name = "org.example.Counter"
    static let path = "/org/example/Counter"
    static let interface = "org.example.Counter"
    static let childInterface = "org.example.Child"

    /// Exports the counter on `server` (on the server's thread) and takes the bus name.
    static func install(connection: DBusConnection, server: DBusObjectServer) throws {
        var count: UInt32 = 0
        var label = "start"
        let counter = DBusInterface(name: interface, methods: [
            DBusMethod("Echo", inputs: [DBusArgument("text", "s"), DBusArgument("options", "a{sv}")],
                       outputs: [DBusArgument("text", "s"), DBusArgument("options", "a{sv}")]) { call in
                call.arguments
            },
            DBusMethod("Trivial") { _ in [] },
            DBusMethod("Fail") { _ throws(DBusError) in
                throw DBusError(name: "org.example.Error.Nope", message: "nope, as asked")
            },
            DBusMethod("BadReturn", outputs: [DBusArgument("text", "s")]) { _ in [.int32(1)] },
            DBusMethod("Increment", inputs: [DBusArgument("by", "u")], outputs: [DBusArgument("count", "u")]) {
                [weak server] call throws(DBusError) in
                guard let server else { throw .failed("the counter is stopping") }
                count += UInt32(call.arguments[0].integer ?? 0)
                server.emitPropertiesChanged(path: path, interface: interface, names: ["Count"])
                try server.emit(path: path, interface: interface, signal: "Incremented", [.uint32(count)])
                return [.uint32(count)]
            },
            DBusMethod("Touch") { [weak server] _ in
                guard let server else { return [] }
                server.emitPropertiesChanged(path: path, interface: interface, names: ["Secret", "Fixed", "Count"])
                return []
            },
            DBusMethod("AddChild", inputs: [DBusArgument("name", "s")], outputs: [DBusArgument("path", "o")]) {
                [weak server] call throws(DBusError) in
                guard let server else { throw .failed("the counter is stopping") }
                let name = call.arguments[0].string ?? ""
                let childPath = path + "/children/" + name
                try server.export(childPath, [DBusInterface(name: childInterface, properties: [
                    DBusProperty("Name", "s", emitsChange: .const, get: { .string(name) }),
                ])])
                return [.objectPath(childPath)]
            },
            DBusMethod("RemoveChild", inputs: [DBusArgument("name", "s")]) { [weak server] call in
                server?.unexport(path + "/children/" + (call.arguments[0].string ?? ""))
                return []
            },
        ], properties: [
            DBusProperty("Count", "u", get: { .uint32(count) }),
            DBusProperty("Label", "s", access: .readwrite, get: { .string(label) }, set: { value throws(DBusError) in
                guard let text = value.string, !text.isEmpty else { throw .invalidArgs("Label must not be empty") }
                label = text
            }),
            DBusProperty("Secret", "s", emitsChange: .invalidates, get: { .string("hidden") }),
            DBusProperty("Fixed", "s", emitsChange: .const, get: { .string("fixed") }),
        ], signals: [
            DBusSignal("Incremented", [DBusArgument("count", "u")]),
        ])
        try server.export(path, [counter])
        server.enableObjectManager(at: path)
        _ = try connection.requestName(name)
    }
}
