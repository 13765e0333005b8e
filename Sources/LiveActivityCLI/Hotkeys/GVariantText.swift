import Foundation

/// The GVariant text format as `gsettings` prints and parses it, for the two types GNOME's
/// custom shortcuts use: a string (`'…'`) and an array of strings (`['…', '…']`, `@as []`).
enum GVariantText {
    static func string(_ text: String) -> String {
        "'" + text.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'") + "'"
    }

    static func stringArray(_ items: [String]) -> String {
        items.isEmpty ? "@as []" : "[" + items.map(string).joined(separator: ", ") + "]"
    }

    /// A string as printed (single or double quotes, backslash escapes), or nil.
    static func parseString(_ text: String) -> String? {
        var scanner = Scanner(text.trimmingCharacters(in: .whitespacesAndNewlines))
        guard let value = scanner.quoted(), scanner.atEnd else { return nil }
        return value
    }

    /// An array of strings as printed, or nil.
    static func parseStringArray(_ text: String) -> [String]? {
        var body = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if body.hasPrefix("@as ") { body = String(body.dropFirst(4)) }
        var scanner = Scanner(body)
        guard scanner.take("[") else { return nil }
        var items: [String] = []
        scanner.skipSpaces()
        if scanner.take("]") { return scanner.atEnd ? items : nil }
        while true {
            scanner.skipSpaces()
            guard let item = scanner.quoted() else { return nil }
            items.append(item)
            scanner.skipSpaces()
            if scanner.take("]") { return scanner.atEnd ? items : nil }
            guard scanner.take(",") else { return nil }
        }
    }

    /// Reads the text one character at a time.
    private struct Scanner {
        let characters: [Character]
        var index = 0
        init(_ text: String) { characters = Array(text) }

        var atEnd: Bool { index == characters.count }

        mutating func take(_ character: Character) -> Bool {
            guard index < characters.count, characters[index] == character else { return false }
            index += 1
            return true
        }

        mutating func skipSpaces() { while index < characters.count, characters[index] == " " { index += 1 } }

        mutating func quoted() -> String? {
            guard index < characters.count, characters[index] == "'" || characters[index] == "\"" else { return nil }
            let quote = characters[index]
            index += 1
            var value = ""
            while index < characters.count {
                let character = characters[index]
                index += 1
                if character == quote { return value }
                if character == "\\", index < characters.count {
                    value.append(characters[index])
                    index += 1
                } else {
                    value.append(character)
                }
            }
            return nil
        }
    }
}
