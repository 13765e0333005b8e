/// The static data of a Live Activity and the type of its dynamic data, as in ActivityKit.
///
/// Linux addition: `activityKind`, the daemon kind that draws the card (DESIGN.md: a kind is
/// the declared template of an activity). By default it is the type's name, so an app ships
/// `<TypeName>.json` (see `ActivityKindFile`) for a designed card; without a kind file the
/// card is composed from the type name and the state's fields by the daemon's `generic` kind.
public protocol ActivityAttributes: Decodable, Encodable {
    /// The dynamic content: at most 4 KB once encoded, as in ActivityKit (the daemon's cap
    /// counts attributes and state together).
    associatedtype ContentState: Decodable & Encodable & Hashable

    /// The daemon kind this type's activities start as: letters, digits, `-` and `_`.
    static var activityKind: String { get }
}

extension ActivityAttributes {
    /// The type's name (`FocusSessionAttributes`), with any other character replaced by `_`.
    public static var activityKind: String { ActivityKindName.derived(from: Self.self) }
}

/// How a kind name is derived from a type.
enum ActivityKindName {
    static func derived(from type: Any.Type) -> String {
        let name = String(describing: type)
        let cleaned = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
        return cleaned.isEmpty ? "generic" : cleaned
    }

    /// `FocusSessionAttributes` → `Focus Session`: the title of a card without a kind file.
    static func title(of type: Any.Type) -> String {
        var name = String(describing: type)
        for suffix in ["ActivityAttributes", "Attributes"] where name.hasSuffix(suffix) && name.count > suffix.count {
            name.removeLast(suffix.count)
            break
        }
        return Words.spaced(name)
    }
}

/// Turns identifiers into words for people: `startTime` → `Start time`, `FocusSession` → `Focus Session`.
enum Words {
    static func spaced(_ identifier: String) -> String {
        var result = ""
        var previous: Character?
        for character in identifier {
            if character == "_" || character == "-" || character == "." {
                result.append(" ")
            } else {
                if character.isUppercase, let previous, previous.isLowercase || previous.isNumber { result.append(" ") }
                result.append(character)
            }
            previous = character
        }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// `startTime` → `Start time`.
    static func label(_ key: String) -> String {
        let words = spaced(key).lowercased()
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}
