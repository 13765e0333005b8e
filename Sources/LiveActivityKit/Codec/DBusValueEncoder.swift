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

/// Encodes one value into a fresh node and returns it.
private func encodedNode<T: Encodable>(_ value: T, by encoder: TreeEncoder) throws -> EncodedNode {
    if let leaf = try encoder.leaf(value) {
        let node = EncodedNode()
        node.content = .leaf(leaf)
        return node
    }
    try encoder.encodeValue(value)
    return encoder.node
}

struct KeyedTreeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func store(_ node: EncodedNode, for key: any CodingKey) {
        var children = encoder.node.keyedChildren()
        children[key.stringValue] = node
        encoder.node.content = .keyed(children)
    }

    /// `nil` is left out, as ActivityKit's JSON leaves out `nil` optionals.
    mutating func encodeNil(forKey key: Key) throws {}

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        store(try encodedNode(value, by: encoder.child(key)), for: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                         forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = encoder.child(key)
        store(child.node, for: key)
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = encoder.child(key)
        store(child.node, for: key)
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let key = IndexKey(name: "super")
        let child = encoder.child(key)
        store(child.node, for: key)
        return child
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = encoder.child(key)
        store(child.node, for: key)
        return child
    }
}

struct UnkeyedTreeContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    var count: Int {
        if case .unkeyed(let elements) = encoder.node.content { return elements.count }
        return 0
    }

    private func append(_ node: EncodedNode) {
        var elements: [EncodedNode] = []
        if case .unkeyed(let existing) = encoder.node.content { elements = existing }
        elements.append(node)
        encoder.node.content = .unkeyed(elements)
    }

    private func nextEncoder() -> TreeEncoder { encoder.child(IndexKey(count)) }

    /// An element that is `nil` keeps its place as an empty `a{sv}`.
    mutating func encodeNil() throws { append(EncodedNode()) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try encodedNode(value, by: nextEncoder()))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = nextEncoder()
        append(child.node)
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = nextEncoder()
        append(child.node)
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = nextEncoder()
        append(child.node)
        return child
    }
}

struct SingleTreeContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.node.content = .empty }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let leaf = try encoder.leaf(value) {
            encoder.node.content = .leaf(leaf)
        } else {
            try encoder.encodeValue(value)
        }
    }
}

/// An array position as a coding key (`0`, `1`, …), or any key by name: a path component of the flat form.
struct IndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String

    init(_ index: Int) {
        intValue = index
        stringValue = String(index)
    }

    /// A key by name (`super`, or a key of the flat form).
    init(name: String) {
        stringValue = name
        intValue = Int(name)
    }

    init?(stringValue: String) { self.init(name: stringValue) }

    init?(intValue: Int) { self.init(intValue) }
}
