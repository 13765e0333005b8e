#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A coding key for any string, used to find keys a kind file has but its schema does not.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ text: String) {
        stringValue = text
        intValue = nil
    }

    init?(stringValue: String) { self.init(stringValue) }

    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension Decoder {
    /// A keyed container that refuses keys outside `keys`, so a typo in a kind file is reported
    /// instead of silently ignored.
    func strictContainer<Keys: CodingKey & CaseIterable>(
        keyedBy keys: Keys.Type
    ) throws -> KeyedDecodingContainer<Keys> {
        let everything = try container(keyedBy: AnyCodingKey.self)
        let known = Keys.allCases.map(\.stringValue)
        let unknown = everything.allKeys.map(\.stringValue).filter { !known.contains($0) }.sorted()
        if let first = unknown.first {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath + [AnyCodingKey(first)],
                debugDescription: "unknown key \"\(first)\"; known keys: \(known.joined(separator: ", "))"))
        }
        return try container(keyedBy: Keys.self)
    }
}

/// A plain JSON scalar (`"x"`, `5`, `1.5`, `true`) read as a `Value`, as kind files write defaults.
struct JSONScalar: Decodable, Equatable {
    let value: Value

    init(_ value: Value) { self.value = value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            value = .bool(flag)
        } else if let integer = try? container.decode(Int64.self) {
            value = .int(integer)
        } else if let number = try? container.decode(Double.self) {
            value = .double(number)
        } else if let text = try? container.decode(String.self) {
            value = .string(text)
        } else {
            throw DecodingError.typeMismatch(Value.self, .init(
                codingPath: decoder.codingPath,
                debugDescription: "expected a string, number or boolean"))
        }
    }
}

/// A JSON string or number read as source text, for expressions that may be written either way.
struct ExpressionText: Decodable, Equatable {
    let text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            text = Value.plainNumber(number)
        } else {
            text = try container.decode(String.self)
        }
    }
}

extension DecodingError {
    /// `attributes.minutes.max: expected a number` style text for a kind problem.
    var kindFileDescription: String {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text
        }
        func located(_ keys: [any CodingKey], _ text: String) -> String {
            keys.isEmpty ? text : "\(path(keys)): \(text)"
        }
        switch self {
        case .typeMismatch(let type, let context):
            return located(context.codingPath, "expected \(Self.typeName(type))")
        case .valueNotFound(let type, let context):
            return located(context.codingPath, "expected \(Self.typeName(type)), found null")
        case .keyNotFound(let key, let context):
            return located(context.codingPath + [key], "required key is missing")
        case .dataCorrupted(let context):
            var text = context.debugDescription
            if let underlying = context.underlyingError {
                text += " (\(underlying))"
            }
            return located(context.codingPath, text)
        @unknown default:
            return String(describing: self)
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is Double.Type, is Int64.Type, is Int.Type: return "a number"
        case is [Any].Type: return "an array"
        default: return "a value of type \(type)"
        }
    }
}
