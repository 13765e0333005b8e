/// Whether client text shows anything. A label made only of zero-width spaces, bidi controls,
/// fillers or blanks passes a length rule yet draws as nothing (or moves the text around it),
/// so labels must hold at least one visible character: one code point that is not whitespace,
/// a control or format character, a default-ignorable code point, a mark on its own, a blank
/// such as U+2800, unassigned or a surrogate.
public enum VisibleText {
    /// Whether `text` has a visible character.
    public static func hasVisibleCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isVisible)
    }

    /// `U+200B U+200B`: the code points of a text that shows nothing, for an error message
    /// (the first `limit` of them).
    public static func codePoints(_ text: String, limit: Int = 8) -> String {
        let shown = text.unicodeScalars.prefix(limit).map { scalar -> String in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return shown.joined(separator: " ") + (text.unicodeScalars.count > limit ? " …" : "")
    }

    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isWhitespace || properties.isDefaultIgnorableCodePoint || scalar == "\u{2800}" { return false }
        switch properties.generalCategory {
        case .control, .format, .surrogate, .unassigned, .spaceSeparator, .lineSeparator, .paragraphSeparator,
             .nonspacingMark, .spacingMark, .enclosingMark:
            return false
        default:
            return true
        }
    }
}
