/// A JSON document as read from a push message. Integers stay integers (a state key that
/// expects an integer must not receive `5.0`), so the reader keeps the two kinds of number
/// apart, which `JSONDecoder` into `Any`-like types cannot promise.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// What a message says when a value has the wrong type: `string "abc"`, `an object`.
    public var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return "boolean \(b)"
        case .int(let i): return "integer \(i)"
        case .double(let d): return "number \(d)"
        case .string(let s): return "string \"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The number as a Double, for integers and doubles alike.
    public var number: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }
}
