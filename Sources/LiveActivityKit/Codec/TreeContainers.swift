import DBus

// The keyed, unkeyed and single-value containers of `TreeEncoder`, and the index keys of arrays.

/// Encodes one value into a fresh node and returns it.
func encodedNode<T: Encodable>(_ value: T, by encoder: TreeEncoder) throws -> EncodedNode {
    if let leaf = try encoder.leaf(value) {
        let node = EncodedNode()
        node.content = .leaf(leaf)
        return node
    }
    try encoder.encodeValue(value)
    return encoder.node
}

/// Encodes a keyed value into a node whose children are named by key.
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

/// Encodes an unkeyed value into a node whose children are kept in order.
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

/// Encodes a single value into a leaf node.
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
