/// Text a D-Bus message can carry. Every string on the bus is UTF-8 without NUL (a Swift
/// `String` is always valid Unicode, so NUL is what remains to check); one stored string with a
/// NUL would make every later `Get`, `GetManagedObjects` and menu layout that includes it fail.
/// Edges refuse such text with a named error; restored records holding it are set aside.
public enum BusText {
    /// Whether `text` can be sent on the bus.
    public static func isValid(_ text: String) -> Bool {
        !text.utf8.contains(0)
    }

    /// The reason `text` cannot be sent, or nil; `role` names it, e.g. `state key "title"`, and is
    /// only made when there is a problem (every Update checks every key and string before its reply).
    public static func problem(_ text: String, role: @autoclosure () -> String) -> String? {
        guard let offset = text.utf8.firstIndex(of: 0) else { return nil }
        return "\(role()): contains a NUL character at byte \(text.utf8.distance(from: text.utf8.startIndex, to: offset)); "
            + "text on the bus cannot hold NUL"
    }

    /// Refuses keys and string values of `values` that are not valid bus text.
    public static func check(_ values: [String: Value], role: String) throws(ActivityError) {
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            if let problem = problem(key, role: "\(role) name \(Quoted.text(key))") { throw .invalidArgument(problem) }
            if case .string(let text) = value, let problem = problem(text, role: "\(role) \(Quoted.text(key))") {
                throw .invalidArgument(problem)
            }
        }
    }
}
