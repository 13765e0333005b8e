#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A typed attribute or state value, already converted from D-Bus by the daemon.
///
/// Its JSON form is a one-key object naming the type, so integers and numbers stay distinct
/// and a stored file reads naturally: `{"s":"Pomodoro"}`, `{"i":25}`, `{"d":0.5}`, `{"b":true}`.
public enum Value: Codable, Equatable, Hashable, Sendable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)

    private enum CodingKeys: String, CodingKey { case s, i, d, b }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "expected an object with exactly one of the keys s, i, d, b"))
        }
        switch key {
        case .s: self = .string(try container.decode(String.self, forKey: .s))
        case .i: self = .int(try container.decode(Int64.self, forKey: .i))
        case .d: self = .double(try container.decode(Double.self, forKey: .d))
        case .b: self = .bool(try container.decode(Bool.self, forKey: .b))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .string(let text): try container.encode(text, forKey: .s)
        case .int(let number): try container.encode(number, forKey: .i)
        case .double(let number): try container.encode(number, forKey: .d)
        case .bool(let flag): try container.encode(flag, forKey: .b)
        }
    }

    /// The value as a user reads it in a message: `string "abc"`, `integer 5`, `number 1.5`, `boolean true`.
    public var typeDescription: String {
        switch self {
        case .string(let text): return "string \(Quoted.text(text))"
        case .int: return "integer \(displayText)"
        case .double: return "number \(displayText)"
        case .bool: return "boolean \(displayText)"
        }
    }

    /// The value as plain text, as a template shows it (`16`, `1.5`, `true`).
    public var displayText: String {
        switch self {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .double(let number): return Value.plainNumber(number)
        case .bool(let flag): return flag ? "true" : "false"
        }
    }

    /// The value as a number when it is one (integers included).
    public var number: Double? {
        switch self {
        case .int(let number): return Double(number)
        case .double(let number): return number
        case .string, .bool: return nil
        }
    }

    /// Writes an integral double without a fraction (`16` rather than `16.0`).
    static func plainNumber(_ number: Double) -> String {
        if number.isFinite, number.rounded() == number, abs(number) < 1e15 {
            return String(Int64(number))
        }
        return String(number)
    }
}
