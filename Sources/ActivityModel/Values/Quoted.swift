/// Client text inside an error message, quoted and cut short: a 1 MiB kind name, id or key
/// must not come back whole in the reply or the log. At most `limit` characters are quoted;
/// a longer text is followed by its length, e.g. `"aaaa…" (1048576 characters)`. Control
/// characters (NUL, ESC, …) are shown as `\u{1B}`, so the message itself is valid bus text and
/// safe on a terminal.
public enum Quoted {
    public static let limit = 100

    public static func text(_ text: String, limit: Int = Quoted.limit) -> String {
        guard text.count > limit else { return "\"" + visible(text) + "\"" }
        return "\"" + visible(String(text.prefix(limit))) + "…\" (\(text.count) characters)"
    }

    /// `text` with every control character written as `\u{XX}`; `keeping` names the ones left
    /// as they are (the CLI keeps newline and tab on a terminal).
    public static func visible(_ text: String, keeping kept: Set<Unicode.Scalar> = []) -> String {
        let shown = { (scalar: Unicode.Scalar) in isControl(scalar) && !kept.contains(scalar) }
        guard text.unicodeScalars.contains(where: shown) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if shown(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
