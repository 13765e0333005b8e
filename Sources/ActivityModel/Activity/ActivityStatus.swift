/// A point in time as unix seconds; the model never reads the clock, callers pass it in.
public typealias UnixTime = Double

/// The lifecycle state of an activity (ActivityKit's `ActivityState`, plus `paused`).
public enum ActivityStatus: String, Codable, Sendable, CaseIterable {
    case active, paused, stale, ended, dismissed

    /// Active, paused and stale activities are live: they count towards the limit and the compact view.
    public var isLive: Bool { self == .active || self == .paused || self == .stale }
}

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

/// A pop-up with optional sound (ActivityKit's `AlertConfiguration`).
public struct Alert: Codable, Equatable, Sendable {
    public var title: String
    public var body: String
    /// A freedesktop sound name such as `complete` or `alarm-clock-elapsed`.
    public var sound: String?

    public init(title: String, body: String = "", sound: String? = nil) {
        self.title = title
        self.body = body
        self.sound = sound
    }
}

/// What a card button does: a built-in lifecycle action or a custom key for the client.
///
/// Its `key` is what the notification action carries: `end`, `complete`, `cancel`, `pause`,
/// `resume`, `extend:300`, or the custom key itself.
public enum CardAction: Equatable, Hashable, Sendable {
    case end, complete, cancel, pause, resume
    case extend(seconds: Int64)
    case custom(String)

    /// The names custom keys may not take.
    static let builtInNames = ["end", "complete", "cancel", "pause", "resume", "extend"]

    public var key: String {
        switch self {
        case .end: return "end"
        case .complete: return "complete"
        case .cancel: return "cancel"
        case .pause: return "pause"
        case .resume: return "resume"
        case .extend(let seconds): return "extend:\(seconds)"
        case .custom(let key): return key
        }
    }

    /// The action a key stands for; unknown keys are custom.
    public init(key: String) {
        switch key {
        case "end": self = .end
        case "complete": self = .complete
        case "cancel": self = .cancel
        case "pause": self = .pause
        case "resume": self = .resume
        default:
            if key.hasPrefix("extend:"), let seconds = Int64(key.dropFirst(7)) {
                self = .extend(seconds: seconds)
            } else {
                self = .custom(key)
            }
        }
    }
}

/// A button as the card shows it.
public struct CardButton: Equatable, Sendable {
    /// The action key (see `CardAction.key`).
    public var key: String
    public var label: String

    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }

    public var action: CardAction { CardAction(key: key) }
}
