import CDBus

/// The names of the interfaces the object server provides itself.
enum StandardInterfaceName {
    static let introspectable = "org.freedesktop.DBus.Introspectable"
    static let properties = "org.freedesktop.DBus.Properties"
    static let peer = "org.freedesktop.DBus.Peer"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let all: Set<String> = [introspectable, properties, peer, objectManager]
}

/// The standard interfaces, written as ordinary tables for a given path so that dispatch
/// and introspection treat them like any declared interface.
extension DBusObjectServer {
    /// The standard interfaces served at `path`: all of them for objects (ObjectManager only
    /// where enabled), Introspectable and Peer for the nodes above objects.
    func standardInterfaces(at path: String) -> [DBusInterface] {
        let isObject = objects[path] != nil || managerPaths.contains(path)
        var tables = [introspectableInterface(path)]
        if isObject { tables.append(propertiesInterface(path)) }
        tables.append(peerInterface())
        if managerPaths.contains(path) { tables.append(objectManagerInterface(path)) }
        return tables
    }

    /// One standard interface at `path` by name, if it is served there.
    func standardInterface(_ name: String, at path: String) -> DBusInterface? {
        guard StandardInterfaceName.all.contains(name) else { return nil }
        return standardInterfaces(at: path).first { $0.name == name }
    }

    private func introspectableInterface(_ path: String) -> DBusInterface {
        DBusInterface(name: StandardInterfaceName.introspectable, methods: [
            DBusMethod("Introspect", outputs: [DBusArgument("xml_data", "s")]) { [unowned self] _ in
                [.string(introspectionXML(path: path))]
            },
        ])
    }

    private func peerInterface() -> DBusInterface {
        DBusInterface(name: StandardInterfaceName.peer, methods: [
            DBusMethod("Ping") { _ in [] },
            DBusMethod("GetMachineId", outputs: [DBusArgument("machine_uuid", "s")]) { _ throws(DBusError) in
                guard let raw = dbus_get_local_machine_id() else { throw .failed("no machine id") }
                defer { dbus_free(raw) }
                return [.string(String(cString: raw))]
            },
        ])
    }

    private func propertiesInterface(_ path: String) -> DBusInterface {
        DBusInterface(name: StandardInterfaceName.properties, methods: [
            DBusMethod("Get", inputs: [DBusArgument("interface_name", "s"), DBusArgument("property_name", "s")],
                       outputs: [DBusArgument("value", "v")]) { [unowned self] call throws(DBusError) in
                let property = try findProperty(path, call.arguments[0].string ?? "", call.arguments[1].string ?? "")
                return [.variant(try value(of: property))]
            },
            DBusMethod("GetAll", inputs: [DBusArgument("interface_name", "s")],
                       outputs: [DBusArgument("properties", "a{sv}")]) { [unowned self] call throws(DBusError) in
                [try allProperties(path, interface: call.arguments[0].string ?? "")]
            },
            DBusMethod("Set", inputs: [DBusArgument("interface_name", "s"), DBusArgument("property_name", "s"),
                                       DBusArgument("value", "v")]) { [unowned self] call throws(DBusError) in
                let interface = call.arguments[0].string ?? ""
                let property = try findProperty(path, interface, call.arguments[1].string ?? "")
                try set(property, to: call.arguments[2])
                let owner = objects[path]?.first { $0.property(named: property.name) != nil }
                emitPropertiesChanged(path: path, interface: owner?.name ?? interface, names: [property.name])
                return []
            },
        ], signals: [
            DBusSignal("PropertiesChanged", [DBusArgument("interface_name", "s"),
                                             DBusArgument("changed_properties", "a{sv}"),
                                             DBusArgument("invalidated_properties", "as")]),
        ])
    }

    private func objectManagerInterface(_ path: String) -> DBusInterface {
        DBusInterface(name: StandardInterfaceName.objectManager, methods: [
            DBusMethod("GetManagedObjects",
                       outputs: [DBusArgument("object_paths_interfaces_and_properties", "a{oa{sa{sv}}}")]) {
                [unowned self] _ throws(DBusError) in
                let managed = objects.keys.filter { Self.isDescendant($0, of: path) }.sorted()
                var entries: [DBusDictEntry] = []
                var failure: DBusError?
                inReadScope {
                    do throws(DBusError) {
                        for child in managed {
                            entries.append(DBusDictEntry(key: .objectPath(child), value: try interfacesAndProperties(child)))
                        }
                    } catch {
                        failure = error
                    }
                }
                if let failure { throw failure }
                return [.dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", entries)]
            },
        ], signals: [
            DBusSignal("InterfacesAdded", [DBusArgument("object_path", "o"),
                                           DBusArgument("interfaces_and_properties", "a{sa{sv}}")]),
            DBusSignal("InterfacesRemoved", [DBusArgument("object_path", "o"), DBusArgument("interfaces", "as")]),
        ])
    }

    /// The property `name` of `interface` at `path` (any declared interface when `interface` is empty).
    private func findProperty(_ path: String, _ interface: String, _ name: String) throws(DBusError) -> DBusProperty {
        let declared = objects[path] ?? []
        let candidates = interface.isEmpty ? declared : declared.filter { $0.name == interface }
        if candidates.isEmpty, !StandardInterfaceName.all.contains(interface) {
            throw .unknownInterface("object \(path) has no interface \(interface)")
        }
        for table in candidates {
            if let property = table.property(named: name) { return property }
        }
        throw .unknownProperty("interface \(interface) has no property \(name)")
    }

    /// A property's current value, checked against its declared type.
    func value(of property: DBusProperty) throws(DBusError) -> DBusValue {
        let value = property.get()
        guard value.signature == property.signature else {
            throw .failed("property \(property.name) is declared \(property.signature) but holds \(value.typeDescription)")
        }
        return value
    }

    /// `a{sv}` of every property of `interface` at `path` (empty for the standard interfaces).
    private func allProperties(_ path: String, interface: String) throws(DBusError) -> DBusValue {
        guard let table = objects[path]?.first(where: { $0.name == interface }) else {
            if StandardInterfaceName.all.contains(interface) { return .vardict([:]) }
            throw .unknownInterface("object \(path) has no interface \(interface)")
        }
        return try properties(of: table)
    }

    func properties(of table: DBusInterface) throws(DBusError) -> DBusValue {
        guard let readAll = table.readAll else {
            var values: [String: DBusValue] = [:]
            for property in table.properties { values[property.name] = try value(of: property) }
            return .vardict(values)
        }
        let values = readAll()
        for property in table.properties {
            guard let value = values[property.name], value.signature == property.signature else {
                throw .failed("property \(property.name) is declared \(property.signature) but holds "
                              + (values[property.name]?.typeDescription ?? "nothing"))
            }
        }
        return .vardict(values)
    }

    /// Runs `reads` inside `readScope` when one is set (one snapshot for all of them).
    func inReadScope(_ reads: () -> Void) {
        if let readScope { readScope(reads) } else { reads() }
    }

    /// Checks and applies a Properties.Set.
    private func set(_ property: DBusProperty, to wrapped: DBusValue) throws(DBusError) {
        guard property.isWritable, let setter = property.set else {
            throw .propertyReadOnly("property \(property.name) is read-only")
        }
        guard case .variant(let value) = wrapped, value.signature == property.signature else {
            throw .invalidArgs("property \(property.name) expects type \(property.signature), "
                               + "got \(wrapped.unwrapped.typeDescription)")
        }
        try setter(value)
    }
}
