/// The registry's limits (the daemon may configure them).
public struct Limits: Equatable, Sendable {
    /// Attributes and state together, measured by `PayloadSize`.
    public var maxPayloadBytes: Int
    public var maxLiveActivities: Int
    /// The latest a `dismiss-at` may be after the end.
    public var maxDismissDelay: Double
    /// How long a `default` dismissal keeps the final card.
    public var defaultDismissDelay: Double
    /// How many ended activities may wait for their dismissal; beyond it the oldest ended
    /// are dismissed at once, so a script that starts and ends in a loop cannot pile them up.
    public var maxEndedActivities: Int

    public init(maxPayloadBytes: Int = 4096, maxLiveActivities: Int = 32,
                maxDismissDelay: Double = 4 * 3600, defaultDismissDelay: Double = 4 * 3600,
                maxEndedActivities: Int = 32) {
        self.maxPayloadBytes = maxPayloadBytes
        self.maxLiveActivities = maxLiveActivities
        self.maxDismissDelay = maxDismissDelay
        self.defaultDismissDelay = defaultDismissDelay
        self.maxEndedActivities = maxEndedActivities
    }
}
