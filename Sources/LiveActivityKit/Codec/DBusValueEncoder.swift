import DBus
import Foundation

/// Turns any `Encodable` into a D-Bus value, the way ActivityKit turns a `ContentState` into
/// JSON: keyed containers (structs, dictionaries) become `a{sv}`, unkeyed ones (arrays) `av`,
/// strings `s`, booleans `b`, integers `x` (`t` above `Int64.max`), floating point `d`.
/// `Date` is unix seconds (`d`, what the daemon's timers and templates read), `UUID` and
/// `URL` their text, enums their raw value (their own `Codable`), and `nil` optionals are
/// left out. Non-finite numbers are refused here, with the key path, before the daemon sees them.
struct DBusValueEncoder {
    /// The flat paths (`session.startedAt`) of every `Date` encoded, so a card composed
    /// without a kind file can show them as times rather than as numbers.
    private(set) var datePaths: Set<String> = []

    mutating func encode<T: Encodable>(_ value: T) throws -> DBusValue {
        let root = EncodedNode()
        let encoder = TreeEncoder(node: root, codingPath: [], dates: DatePathRecorder())
        try encoder.encodeValue(value)
        datePaths = encoder.dates.paths
        return root.dbusValue
    }
}

/// What one encoded value turned out to be, filled in as the value encodes itself.
final class EncodedNode {
    /// Nothing yet, one D-Bus value, or a keyed or unkeyed container of child nodes.
    enum Content {
        case empty
        case leaf(DBusValue)
        case keyed([String: EncodedNode])
        case unkeyed([EncodedNode])
    }

    var content: Content = .empty

    /// `nil` (or nothing at all) is an empty `a{sv}`: a key holding it is left out by the flattener.
    var dbusValue: DBusValue {
        switch content {
        case .empty: return .vardict([:])
        case .leaf(let value): return value
        case .keyed(let children): return .vardict(children.mapValues(\.dbusValue))
        case .unkeyed(let elements): return .array(elementSignature: "v", elements.map { .variant($0.dbusValue) })
        }
    }

    func keyedChildren() -> [String: EncodedNode] {
        if case .keyed(let children) = content { return children }
        return [:]
    }
}

/// Collects the paths of dates while encoding (shared by every nested encoder).
final class DatePathRecorder {
    var paths: Set<String> = []
}

/// The `Encoder` handed to values; writes into one node.
struct TreeEncoder: Encoder {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    let dates: DatePathRecorder
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed = node.content {} else { node.content = .keyed([:]) }
        return KeyedEncodingContainer(KeyedTreeContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unkeyed = node.content {} else { node.content = .unkeyed([]) }
        return UnkeyedTreeContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleTreeContainer(encoder: self) }

    /// Encodes `value` into this node, with the special forms of Date, UUID and URL.
    func encodeValue<T: Encodable>(_ value: T) throws {
        switch value {
        case let date as Date:
            dates.paths.insert(FlatState.path(codingPath))
            node.content = .leaf(.double(try finite(date.timeIntervalSince1970)))
        case let uuid as UUID: node.content = .leaf(.string(uuid.uuidString))
        case let url as URL: node.content = .leaf(.string(url.absoluteString))
        default: try value.encode(to: self)
        }
    }

    func child(_ key: any CodingKey) -> TreeEncoder {
        TreeEncoder(node: EncodedNode(), codingPath: codingPath + [key], dates: dates)
    }

    func finite(_ number: Double) throws -> Double {
        guard number.isFinite else {
            throw EncodingError.invalidValue(number, .init(
                codingPath: codingPath, debugDescription: "\(number) cannot be sent: the daemon takes finite numbers only"))
        }
        return number
    }

    /// The leaf for a basic value.
    func leaf(_ value: some Encodable) throws -> DBusValue? {
        switch value {
        case let text as String: return .string(text)
        case let flag as Bool: return .boolean(flag)
        case let number as Double: return .double(try finite(number))
        case let number as Float: return .double(try finite(Double(number)))
        case let number as Int: return .int64(Int64(number))
        case let number as Int8: return .int64(Int64(number))
        case let number as Int16: return .int64(Int64(number))
        case let number as Int32: return .int64(Int64(number))
        case let number as Int64: return .int64(number)
        case let number as UInt: return Self.unsigned(UInt64(number))
        case let number as UInt8: return .int64(Int64(number))
        case let number as UInt16: return .int64(Int64(number))
        case let number as UInt32: return .int64(Int64(number))
        case let number as UInt64: return Self.unsigned(number)
        default: return nil
        }
    }

    static func unsigned(_ number: UInt64) -> DBusValue {
        number <= UInt64(Int64.max) ? .int64(Int64(number)) : .uint64(number)
    }
}
