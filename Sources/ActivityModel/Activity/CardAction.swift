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
