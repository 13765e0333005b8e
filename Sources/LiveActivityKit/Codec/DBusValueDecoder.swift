import DBus
import Foundation

/// Turns a D-Bus value back into any `Decodable`: the inverse of `DBusValueEncoder`.
///
/// It is lenient where the daemon's flat form needs it: an `a{sv}` whose keys are `0`, `1`, …
/// reads as an array (a missing index is `nil`), an absent array or struct of only optionals
/// reads as empty, and an integer reads as a `Double` (the daemon keeps what a kind declares).
struct DBusValueDecoder {
    func decode<T: Decodable>(_ type: T.Type, from value: DBusValue) throws -> T {
        try TreeDecoder(value: value.unwrapped, codingPath: []).decodeValue(type)
    }
}

/// The `Decoder` handed to values; reads one value, which may be absent (`nil`).
struct TreeDecoder: Decoder {
    let value: DBusValue?
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedTreeReader<Key>(entries: try entries(), codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        UnkeyedTreeReader(elements: try elements(), codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleTreeReader(decoder: self) }

    /// The entries of an `a{sv}` (or of an `av`, keyed by index); none when absent.
    func entries() throws -> [String: DBusValue] {
        switch value {
        case nil: return [:]
        case .dictionary(_, _, let pairs)?:
            var result: [String: DBusValue] = [:]
            for pair in pairs { if let key = pair.key.string { result[key] = pair.value.unwrapped } }
            return result
        case .array(_, let items)?:
            var result: [String: DBusValue] = [:]
            for (index, item) in items.enumerated() { result[String(index)] = item.unwrapped }
            return result
        case let other?:
            throw mismatch("a dictionary (a{sv})", other)
        }
    }

    /// The elements of an `av` (or of an `a{sv}` keyed by index, holes as nil); none when absent.
    func elements() throws -> [DBusValue?] {
        switch value {
        case nil: return []
        case .array(_, let items)?: return items.map { Self.present($0.unwrapped) }
        case .dictionary?:
            let keyed = try entries()
            var indexed: [Int: DBusValue] = [:]
            for (key, item) in keyed {
                guard let index = Int(key), index >= 0, index < 100_000 else {
                    throw DecodingError.typeMismatch([Any].self, .init(
                        codingPath: codingPath, debugDescription: "expected an array, found a dictionary with key \"\(key)\""))
                }
                indexed[index] = item
            }
            let count = (indexed.keys.max() ?? -1) + 1
            return (0..<count).map { indexed[$0].flatMap(Self.present) }
        case let other?:
            throw mismatch("an array (av)", other)
        }
    }

    /// An empty `a{sv}` stands for `nil` inside arrays.
    static func present(_ value: DBusValue) -> DBusValue? {
        if case .dictionary(_, _, let pairs) = value, pairs.isEmpty { return nil }
        return value
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        let special: Any?
        if type == Date.self {
            special = Date(timeIntervalSince1970: try number("a date in unix seconds"))
        } else if type == UUID.self {
            let text = try string()
            guard let uuid = UUID(uuidString: text) else { throw corrupt("expected a UUID, found \"\(text)\"") }
            special = uuid
        } else if type == URL.self {
            let text = try string()
            guard let url = URL(string: text) else { throw corrupt("expected a URL, found \"\(text)\"") }
            special = url
        } else {
            special = nil
        }
        if let special, let result = special as? T { return result }
        return try T(from: self)
    }

    func child(_ value: DBusValue?, _ key: any CodingKey) -> TreeDecoder {
        TreeDecoder(value: value, codingPath: codingPath + [key])
    }

    // MARK: Basic values

    func present() throws -> DBusValue {
        guard let value else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "the daemon holds no value here"))
        }
        return value
    }

    func string() throws -> String {
        let found = try present()
        guard case .string(let text) = found else { throw mismatch("a string", found) }
        return text
    }

    func bool() throws -> Bool {
        let found = try present()
        guard case .boolean(let flag) = found else { throw mismatch("a boolean", found) }
        return flag
    }

    func number(_ expected: String = "a number") throws -> Double {
        let found = try present()
        if case .double(let number) = found { return number }
        if let integer = found.integer { return Double(integer) }
        if case .uint64(let big) = found { return Double(big) }
        throw mismatch(expected, found)
    }

    /// Any integer type, or a double without a fraction, that fits `T` exactly.
    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let found = try present()
        let converted: T?
        switch found {
        case .uint64(let big): converted = T(exactly: big)
        case .double(let number): converted = number.isFinite ? T(exactly: number) : nil
        default: converted = found.integer.flatMap { T(exactly: $0) }
        }
        guard let converted else { throw mismatch("an integer that fits \(T.self)", found) }
        return converted
    }

    func mismatch(_ expected: String, _ found: DBusValue) -> DecodingError {
        DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath,
                                                   debugDescription: "expected \(expected), found \(found.typeDescription)"))
    }

    func corrupt(_ message: String) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: message))
    }
}
