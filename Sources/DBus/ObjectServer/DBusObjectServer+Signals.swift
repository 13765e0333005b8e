/// Signals from exported objects, checked against their interface tables: declared
/// signals, PropertiesChanged, and the ObjectManager announcements.
extension DBusObjectServer {
    /// Sends `signal` of `interface` from `path`; throws if the object, interface or signal is
    /// not declared, or the arguments do not match the declared signature.
    public func emit(path: String, interface: String, signal: String, _ arguments: [DBusValue]) throws(DBusError) {
        guard isKnownPath(path) else { throw .unknownObject("no object at path \(path)") }
        guard let table = objects[path]?.first(where: { $0.name == interface }) ?? standardInterface(interface, at: path) else {
            throw .unknownInterface("object \(path) has no interface \(interface)")
        }
        guard let declared = table.signal(named: signal) else {
            throw .invalidArgs("interface \(interface) has no signal \(signal)")
        }
        guard arguments.dbusSignature == declared.signature else {
            throw .invalidArgs("signal \(signal) expects (\(declared.signature)), got (\(arguments.dbusSignature))")
        }
        connection.send(try DBusMessage.signal(path: path, interface: interface, member: signal, arguments: arguments))
    }

    /// Sends PropertiesChanged for `names`: values from the getters for `.yes`, names only
    /// for `.invalidates`; `.no` and `.const` properties and unknown names are skipped, and
    /// nothing is sent when nothing is left.
    public func emitPropertiesChanged(path: String, interface: String, names: [String]) {
        guard let table = objects[path]?.first(where: { $0.name == interface }) else { return }
        var changed: [String: DBusValue] = [:]
        var invalidated: [String] = []
        for name in names {
            guard let property = table.property(named: name) else { continue }
            switch property.emitsChange {
            case .yes:
                if let value = try? value(of: property) { changed[name] = value }
            case .invalidates:
                if !invalidated.contains(name) { invalidated.append(name) }
            case .no, .const:
                continue
            }
        }
        guard !changed.isEmpty || !invalidated.isEmpty else { return }
        sendPropertiesChanged(path: path, interface: interface, changed: changed, invalidated: invalidated)
    }

    /// Sends PropertiesChanged with values the caller already has (saving a getter call per
    /// property); like `emitPropertiesChanged(path:interface:names:)` otherwise.
    public func emitPropertiesChanged(path: String, interface: String, values: [String: DBusValue]) {
        guard let table = objects[path]?.first(where: { $0.name == interface }) else { return }
        var changed: [String: DBusValue] = [:]
        var invalidated: [String] = []
        for (name, value) in values {
            guard let property = table.property(named: name) else { continue }
            switch property.emitsChange {
            case .yes: changed[name] = value
            case .invalidates: invalidated.append(name)
            case .no, .const: continue
            }
        }
        guard !changed.isEmpty || !invalidated.isEmpty else { return }
        sendPropertiesChanged(path: path, interface: interface, changed: changed, invalidated: invalidated.sorted())
    }

    /// PropertiesChanged of an exported object (the caller checked it), sent without looking
    /// the signal up in the standard tables: its signature `sa{sv}as` is fixed, and building
    /// those tables for every update of a property was a cost of its own.
    private func sendPropertiesChanged(path: String, interface: String, changed: [String: DBusValue], invalidated: [String]) {
        let arguments: [DBusValue] = [.string(interface), .vardict(changed),
                                      .array(elementSignature: "s", invalidated.map { .string($0) })]
        guard let message = try? DBusMessage.signal(path: path, interface: StandardInterfaceName.properties,
                                                    member: "PropertiesChanged", arguments: arguments)
        else { return }
        connection.send(message)
    }

    /// `a{sa{sv}}` of every interface at `path` with its properties, as ObjectManager reports it.
    func interfacesAndProperties(_ path: String) throws(DBusError) -> DBusValue {
        var entries: [DBusDictEntry] = []
        for table in allInterfaces(at: path) {
            let properties = StandardInterfaceName.all.contains(table.name) ? DBusValue.vardict([:]) : try properties(of: table)
            entries.append(DBusDictEntry(key: .string(table.name), value: properties))
        }
        return .dictionary(keySignature: "s", valueSignature: "a{sv}", entries)
    }

    /// InterfacesAdded from every object manager above a newly exported `path`.
    func announceAdded(_ path: String) {
        let managers = managerPaths.filter { Self.isDescendant(path, of: $0) }
        guard !managers.isEmpty, let description = try? interfacesAndProperties(path) else { return }
        for manager in managers.sorted() {
            try? emit(path: manager, interface: StandardInterfaceName.objectManager, signal: "InterfacesAdded",
                      [.objectPath(path), description])
        }
    }

    /// InterfacesRemoved from every object manager above `path`, which is about to go.
    func announceRemoved(_ path: String) {
        let managers = managerPaths.filter { Self.isDescendant(path, of: $0) }
        guard !managers.isEmpty else { return }
        let names = allInterfaces(at: path).map { DBusValue.string($0.name) }
        for manager in managers.sorted() {
            try? emit(path: manager, interface: StandardInterfaceName.objectManager, signal: "InterfacesRemoved",
                      [.objectPath(path), .array(elementSignature: "s", names)])
        }
    }
}
