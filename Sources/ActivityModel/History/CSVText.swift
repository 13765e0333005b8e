/// CSV as RFC 4180 writes it, for `liveactivity history --format csv`: fields separated by
/// commas, records by CRLF; a field holding a comma, a quote, a line break or leading or
/// trailing blanks is quoted, its quotes doubled. Titles and tasks come from clients, so any
/// text must survive a round trip through a spreadsheet, and none may run there as a formula:
/// a field a spreadsheet would read as one gets a leading `'` (OWASP's advice on CSV injection).
public enum CSVText {
    /// The first characters that make a spreadsheet read a cell as a formula (OWASP: `=`, `+`,
    /// `-`, `@`, tab, carriage return), and their fullwidth forms, which some spreadsheets
    /// take for the same.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r", "\u{FF1D}", "\u{FF0B}", "\u{FF0D}", "\u{FF20}"]

    /// One field, quoted when it must be; a would-be formula as text (`'=1+2`), always quoted.
    public static func field(_ text: String) -> String {
        if let first = text.unicodeScalars.first, formulaStarts.contains(first) {
            return "\"'" + text.replacingQuotes() + "\""
        }
        // Scalars, not characters: "\r\n" is one Character, and so is a quote with a combining mark.
        let needsQuotes = text.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || text.unicodeScalars.first?.properties.isWhitespace == true
            || text.unicodeScalars.last?.properties.isWhitespace == true
        guard needsQuotes else { return text }
        return "\"" + text.replacingQuotes() + "\""
    }

    /// One record (no line break at its end).
    public static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",")
    }

    /// A whole table: the header and the rows, each record ended by CRLF.
    public static func table(header: [String], rows: [[String]]) -> String {
        ([header] + rows).map { record($0) + "\r\n" }.joined()
    }
}

extension String {
    fileprivate func replacingQuotes() -> String {
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if scalar == "\"" { result.append(scalar) }
            result.append(scalar)
        }
        return String(result)
    }
}
