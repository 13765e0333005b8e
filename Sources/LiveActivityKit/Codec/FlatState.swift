import DBus

/// The daemon's form of attributes and state: one `a{sv}` level of strings, numbers and
/// booleans (DESIGN.md), because kinds declare, validate and render single keys. Nested
/// values are spread out under dotted paths, which kind templates can name:
/// `{"session": {"name": "Deep Work"}, "tags": ["a", "b"]}` is sent as `session.name`,
/// `tags.0`, `tags.1`, and read back into the nested form for the decoder.
///
/// An empty array or struct has no entry at all (it decodes as empty again), and a `nil`
/// inside an array is a missing index (a trailing one is lost, so `[1, nil]` reads `[1]`).
enum FlatState {
    /// The flat dictionary of an encoded `a{sv}`; throws for a key containing `.` (it would be
    /// read back as a path) or for a top-level value that is not a dictionary.
    static func flatten(_ value: DBusValue) throws(FlatStateError) -> [String: DBusValue] {
        guard case .dictionary = value, let entries = value.vardict else {
            throw FlatStateError(message: "expected a struct (keyed values), got \(value.typeDescription)")
        }
        var flat: [String: DBusValue] = [:]
        for (key, child) in entries {
            guard !key.contains(".") else {
                throw FlatStateError(message: "key \"\(key)\" contains \".\", which separates nested keys")
            }
            try add(child.unwrapped, at: key, into: &flat)
        }
        return flat
    }

    private static func add(_ value: DBusValue, at path: String, into flat: inout [String: DBusValue]) throws(FlatStateError) {
        guard !path.isEmpty, !path.hasSuffix(".") else {
            throw FlatStateError(message: "key \"\(path)\" is empty")
        }
        switch value {
        case .dictionary:
            for (key, child) in value.vardict ?? [:] {
                guard !key.contains(".") else {
                    throw FlatStateError(message: "key \"\(key)\" at \"\(path)\" contains \".\", which separates nested keys")
                }
                try add(child.unwrapped, at: path + "." + key, into: &flat)
            }
        case .array(_, let items):
            for (index, item) in items.enumerated() { try add(item.unwrapped, at: path + "." + String(index), into: &flat) }
        default:
            flat[path] = value
        }
    }

    /// The nested `a{sv}` of a flat dictionary (every level a dictionary; the decoder reads
    /// index keys as arrays).
    static func unflatten(_ flat: [String: DBusValue]) -> DBusValue {
        let root = PathNode()
        for (path, value) in flat {
            var node = root
            for component in path.split(separator: ".", omittingEmptySubsequences: false) {
                let name = String(component)
                let next = node.children[name] ?? PathNode()
                node.children[name] = next
                node = next
            }
            node.leaf = value.unwrapped
        }
        return root.value
    }

    /// `a.b.0` for a coding path.
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map(\.stringValue).joined(separator: ".")
    }
}

/// Why a value cannot take the daemon's flat form.
struct FlatStateError: Error, Equatable {
    let message: String
}

/// One level of the tree `unflatten` builds; a leaf wins over children of the same path.
private final class PathNode {
    var leaf: DBusValue?
    var children: [String: PathNode] = [:]

    var value: DBusValue {
        if let leaf { return leaf }
        return .vardict(children.mapValues(\.value))
    }
}
