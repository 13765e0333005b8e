/// Why a model call was refused; a refused call changes nothing.
///
/// Each case carries a message that says what was wrong and what is expected. `name` is the
/// suffix of the D-Bus error name (`io.github.liveactivities.LiveActivities1.Error.<name>`),
/// except `InvalidArgs`, which the daemon sends as `org.freedesktop.DBus.Error.InvalidArgs`.
public enum ActivityError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFound(String)
    case alreadyExists(String)
    case unknownKind(String)
    case notActive(String)
    case payloadTooLarge(String)
    case tooManyActivities(String)
    case disabled(String)
    case invalidArgument(String)
    /// A per-activity limit other than the payload's was reached (16 scheduled updates).
    case limitExceeded(String)

    /// The D-Bus error name suffix: `NotFound`, `AlreadyExists`, ..., `InvalidArgs`.
    public var name: String {
        switch self {
        case .notFound: return "NotFound"
        case .alreadyExists: return "AlreadyExists"
        case .unknownKind: return "UnknownKind"
        case .notActive: return "NotActive"
        case .payloadTooLarge: return "PayloadTooLarge"
        case .tooManyActivities: return "TooManyActivities"
        case .disabled: return "Disabled"
        case .invalidArgument: return "InvalidArgs"
        case .limitExceeded: return "LimitExceeded"
        }
    }

    /// The human-readable explanation.
    public var message: String {
        switch self {
        case .notFound(let text), .alreadyExists(let text), .unknownKind(let text),
             .notActive(let text), .payloadTooLarge(let text), .tooManyActivities(let text),
             .disabled(let text), .invalidArgument(let text), .limitExceeded(let text):
            return text
        }
    }

    public var description: String { "\(name): \(message)" }
}
