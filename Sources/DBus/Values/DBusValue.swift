/// A D-Bus value of any type, so messages can be built and read without touching libdbus.
///
/// Containers carry their element signatures, so an empty array or dictionary still has a type.
public enum DBusValue: Sendable, Equatable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    indirect case variant(DBusValue)
    /// `a<elementSignature>`; every element must have that signature.
    case array(elementSignature: String, [DBusValue])
    /// `a{<key><value>}`; the key signature must be a basic type.
    case dictionary(keySignature: String, valueSignature: String, [DBusDictEntry])
    /// `(…)`: at least one field.
    case structure([DBusValue])

    /// The D-Bus type signature of this value, e.g. `a{sv}`.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .variant: "v"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        }
    }
}

/// One key/value pair of a D-Bus dictionary (`{kv}`), kept in order.
public struct DBusDictEntry: Sendable, Equatable {
    public var key: DBusValue
    public var value: DBusValue

    public init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}

extension Array where Element == DBusValue {
    /// The concatenated signature of a list of values, e.g. an argument list.
    public var dbusSignature: String { map(\.signature).joined() }
}
