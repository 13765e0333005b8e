import ActivityModel

/// Turning plain client text into what a server displays correctly: escaped for servers
/// that parse body markup, stripped of tags for those that don't, and a text progress bar
/// for servers that draw no `value` hint.
public enum CardText {
    /// Escapes `&`, `<` and `>` so markup-parsing servers show the text literally.
    public static func escapeMarkup(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Removes the spec's markup tags (`<b> <i> <u> <a …> <img …/>` and their closing tags) so a
    /// server without body markup does not show them; everything else (e.g. "a < b"), entities
    /// included, stays as it is.
    public static func stripMarkup(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "<")) else { return text }  // no tag can start: as it is
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            result += rest[..<open]
            let candidate = rest[open...]
            if let close = candidate.firstIndex(of: ">"), isMarkupTag(candidate[candidate.index(after: open)..<close]) {
                rest = candidate[candidate.index(after: close)...]
            } else {
                result.append("<")
                rest = candidate.dropFirst()
            }
        }
        result += rest
        return result
    }

    private static let markupTagNames: Set<String> = ["b", "i", "u", "a", "img"]

    /// Whether the text between `<` and `>` is one of the spec's tags, e.g. `b`, `/i`, `a href="x"`, `img src="y"/`.
    private static func isMarkupTag(_ inner: Substring) -> Bool {
        var tag = inner
        if tag.hasPrefix("/") { tag = tag.dropFirst() }
        if tag.hasSuffix("/") { tag = tag.dropLast() }
        let name = tag.prefix { !$0.isWhitespace }.lowercased()
        return markupTagNames.contains(name)
    }

    /// The body text for a server: escaped when it parses markup, stripped of tags otherwise.
    public static func body(_ text: String, markup: Bool) -> String {
        markup ? escapeMarkup(text) : stripMarkup(text)
    }

    /// A text progress bar such as "▰▰▰▰▱▱▱▱▱▱ 45%" for servers that draw no `value` hint.
    /// The fraction is clamped to 0...1 and rounded down (0.999 is 99%), so the bar is full only at completion.
    public static func progressBar(_ fraction: Double, cells: Int = 10) -> String {
        let clamped = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        let filled = min(cells, Int((clamped * Double(cells) + 1e-9).rounded(.down)))
        let percent = ShownPercent.of(clamped)
        return String(repeating: "▰", count: filled) + String(repeating: "▱", count: cells - filled) + " \(percent)%"
    }

    /// `line` under `body`, or alone when the body is empty.
    public static func appendLine(_ line: String, to body: String) -> String {
        body.isEmpty ? line : body + "\n" + line
    }

    /// Progress as the int32 `value` hint: 0 to 100, rounded down.
    public static func percentValue(_ fraction: Double) -> Int32 {
        Int32(ShownPercent.of(fraction))
    }
}
