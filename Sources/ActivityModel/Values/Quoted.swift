/// Client text inside an error message, quoted and cut short: a 1 MiB kind name, id or key
/// must not come back whole in the reply or the log. At most `limit` characters are quoted;
/// a longer text is followed by its length, e.g. `"aaaa…" (1048576 characters)`.
public enum Quoted {
    public static let limit = 100

    public static func text(_ text: String, limit: Int = Quoted.limit) -> String {
        guard text.count > limit else { return "\"" + text + "\"" }
        return "\"" + String(text.prefix(limit)) + "…\" (\(text.count) characters)"
    }
}
