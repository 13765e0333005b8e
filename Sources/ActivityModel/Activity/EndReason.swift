/// Why an activity ended (the `reason` End option and the `ActivityEnded` signal).
public enum EndReason: String, Codable, Sendable, CaseIterable {
    case completed, cancelled, ended

    /// Parses the D-Bus text; anything else is an `invalidArgument` listing the choices.
    public init(parsing text: String) throws(ActivityError) {
        guard let reason = EndReason(rawValue: text) else {
            throw .invalidArgument(
                "option \"reason\": expected one of \"completed\", \"cancelled\", \"ended\", got string \(Quoted.text(text))")
        }
        self = reason
    }

    /// How a card says it: `Completed`, `Cancelled`, `Ended`.
    public var label: String {
        switch self {
        case .completed: return "Completed"
        case .cancelled: return "Cancelled"
        case .ended: return "Ended"
        }
    }
}
