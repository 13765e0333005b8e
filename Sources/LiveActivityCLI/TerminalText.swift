/// Client text made harmless for a terminal. Titles, bodies and state values come from any
/// app (or push sender); written raw, an ESC sequence in them could move the cursor, retitle
/// the window or hide other output. On a terminal the CLI shows every control character except
/// newline and tab as a visible `\u{1B}`; into a pipe or file, text goes out as it is.
public enum TerminalText {
    /// `text` with control characters (C0 but newline and tab, DEL, C1) written as `\u{XX}`.
    public static func neutralised(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar != "\n", scalar != "\t" else { return false }
        return scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
