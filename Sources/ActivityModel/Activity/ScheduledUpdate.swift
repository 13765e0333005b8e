/// An Update held back until its time (Update option `at`): a timeline of content that the
/// daemon applies by itself, as the client's Update would have been applied then.
public struct ScheduledUpdate: Codable, Equatable, Sendable {
    /// When it applies (unix seconds).
    public let at: UnixTime
    public let state: [String: Value]
    public let options: UpdateOptions

    public init(at: UnixTime, state: [String: Value], options: UpdateOptions) {
        self.at = at
        self.state = state
        self.options = options
    }
}

/// The bounds of scheduling: how far ahead a start or an update may be set, and how many
/// updates one activity may hold.
public enum ScheduleLimits {
    /// An activity holds at most this many scheduled updates; one more is `LimitExceeded`.
    public static let maxScheduledUpdates = 16
    /// A start or update at most this far ahead of now (366 days).
    public static let longestAhead: Double = 366 * 86_400
}
