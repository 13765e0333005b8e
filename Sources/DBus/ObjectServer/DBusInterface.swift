/// A named, typed argument of a method or signal, as introspection shows it.
public struct DBusArgument: Sendable, Equatable {
    public let name: String
    public let signature: String

    public init(_ name: String, _ signature: String) {
        self.name = name
        self.signature = signature
    }
}

/// What a method handler receives: the decoded arguments (already checked against the
/// declared signature) and the message, for its header fields.
public struct DBusMethodCall {
    public let message: DBusMessage
    public let arguments: [DBusValue]
    /// The unique bus name of the caller.
    public var sender: String?
    /// The object path that was called.
    public let path: String

    /// For calling a handler directly (e.g. in tests); the server builds these itself.
    public init(message: DBusMessage, arguments: [DBusValue], sender: String? = nil, path: String) {
        self.message = message
        self.arguments = arguments
        self.sender = sender
        self.path = path
    }
}

/// One method of an interface table: its argument signatures and the handler that answers it.
public struct DBusMethod {
    public let name: String
    public let inputs: [DBusArgument]
    public let outputs: [DBusArgument]
    /// Returns the output values (checked against `outputs`) or throws the error reply.
    public let handler: (DBusMethodCall) throws(DBusError) -> [DBusValue]

    /// The signature a call must have, e.g. `sa{sv}` (joined once, here, not per call).
    public let inputSignature: String
    /// The signature the reply has.
    public let outputSignature: String

    public init(_ name: String, inputs: [DBusArgument] = [], outputs: [DBusArgument] = [],
                handler: @escaping (DBusMethodCall) throws(DBusError) -> [DBusValue]) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.handler = handler
        inputSignature = inputs.map(\.signature).joined()
        outputSignature = outputs.map(\.signature).joined()
    }
}

/// One property of an interface table, read through `get` and (if writable) written through `set`.
public struct DBusProperty {
    /// Whether clients may write the property.
    public enum Access: Sendable {
        case read, readwrite
    }

    /// How changes are announced (`org.freedesktop.DBus.Property.EmitsChangedSignal`).
    public enum EmitsChange: Sendable {
        /// PropertiesChanged carries the new value (the default, `true`).
        case yes
        /// PropertiesChanged lists the name only.
        case invalidates
        /// No signal (`false`).
        case no
        /// The value never changes.
        case const

        /// The annotation value in introspection XML.
        var annotationValue: String {
            switch self {
            case .yes: "true"
            case .invalidates: "invalidates"
            case .no: "false"
            case .const: "const"
            }
        }
    }

    public let name: String
    public let signature: String
    public let access: Access
    public let emitsChange: EmitsChange
    public let get: () -> DBusValue
    public let set: ((DBusValue) throws(DBusError) -> Void)?

    public init(_ name: String, _ signature: String, access: Access = .read, emitsChange: EmitsChange = .yes,
                get: @escaping () -> DBusValue, set: ((DBusValue) throws(DBusError) -> Void)? = nil) {
        self.name = name
        self.signature = signature
        self.access = access
        self.emitsChange = emitsChange
        self.get = get
        self.set = set
    }

    /// Writable from the bus: declared read-write and given a setter.
    var isWritable: Bool { access == .readwrite && set != nil }
}

/// One signal of an interface table.
public struct DBusSignal: Sendable {
    public let name: String
    public let arguments: [DBusArgument]

    /// The signature the signal's body must have (joined once, here).
    public let signature: String

    public init(_ name: String, _ arguments: [DBusArgument] = []) {
        self.name = name
        self.arguments = arguments
        signature = arguments.map(\.signature).joined()
    }
}

/// An interface declared once as a table; dispatch, signature checks, introspection and
/// the Properties interface are all derived from it.
public struct DBusInterface {
    public let name: String
    public let methods: [DBusMethod]
    public let properties: [DBusProperty]
    public let signals: [DBusSignal]
    /// Every property's value from one read (by property name), for GetAll and the
    /// ObjectManager's reports; without it each property's `get` is called in turn.
    public let readAll: (() -> [String: DBusValue])?

    public init(name: String, methods: [DBusMethod] = [], properties: [DBusProperty] = [],
                signals: [DBusSignal] = [], readAll: (() -> [String: DBusValue])? = nil) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
        self.readAll = readAll
    }

    func method(named name: String) -> DBusMethod? { methods.first { $0.name == name } }
    func property(named name: String) -> DBusProperty? { properties.first { $0.name == name } }
    func signal(named name: String) -> DBusSignal? { signals.first { $0.name == name } }

    /// Throws `InvalidArgs` for a table libdbus or clients would choke on: bad names or
    /// signatures, duplicates.
    func validate() throws(DBusError) {
        guard CString.isValidInterface(name) else { throw .invalidArgs("invalid interface name \"\(name)\"") }
        try Self.checkMembers(methods.map(\.name), kind: "method", in: name)
        try Self.checkMembers(properties.map(\.name), kind: "property", in: name)
        try Self.checkMembers(signals.map(\.name), kind: "signal", in: name)
        let arguments = methods.flatMap { $0.inputs + $0.outputs } + signals.flatMap(\.arguments)
        for argument in arguments where !DBusSignature.isSingleCompleteType(argument.signature) {
            throw .invalidArgs("argument \"\(argument.name)\" in \(name) has invalid type \"\(argument.signature)\"")
        }
        for property in properties where !DBusSignature.isSingleCompleteType(property.signature) {
            throw .invalidArgs("property \(name).\(property.name) has invalid type \"\(property.signature)\"")
        }
    }

    private static func checkMembers(_ names: [String], kind: String, in interface: String) throws(DBusError) {
        var seen = Set<String>()
        for member in names {
            guard CString.isValidMember(member) else { throw .invalidArgs("invalid \(kind) name \"\(member)\" in \(interface)") }
            guard seen.insert(member).inserted else { throw .invalidArgs("\(kind) \(member) declared twice in \(interface)") }
        }
    }
}
