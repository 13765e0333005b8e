/// The registry's limits (the daemon may configure them).
public struct Limits: Equatable, Sendable {
    /// Attributes and state together, measured by `PayloadSize`.
    public var maxPayloadBytes: Int
    public var maxLiveActivities: Int
    /// The latest a `dismiss-at` may be after the end.
    public var maxDismissDelay: Double
    /// How long a `default` dismissal keeps the final card.
    public var defaultDismissDelay: Double

    public init(maxPayloadBytes: Int = 4096, maxLiveActivities: Int = 32,
                maxDismissDelay: Double = 4 * 3600, defaultDismissDelay: Double = 4 * 3600) {
        self.maxPayloadBytes = maxPayloadBytes
        self.maxLiveActivities = maxLiveActivities
        self.maxDismissDelay = maxDismissDelay
        self.defaultDismissDelay = defaultDismissDelay
    }
}
