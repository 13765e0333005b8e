/// Options of Start (`id`, `stale-at`, `relevance`, `app-name`).
public struct StartOptions: Equatable, Sendable {
    /// A client-chosen id; validated (1 to 64 of `[A-Za-z0-9_]`). Nil: the registry makes one.
    public var id: String?
    public var staleAt: UnixTime?
    public var relevance: Double?
    public var appName: String?

    public init(id: String? = nil, staleAt: UnixTime? = nil, relevance: Double? = nil, appName: String? = nil) {
        self.id = id
        self.staleAt = staleAt
        self.relevance = relevance
        self.appName = appName
    }
}

/// Options of Update (`stale-at`, `relevance`, `alert-title`, `alert-body`, `alert-sound`).
public struct UpdateOptions: Equatable, Sendable {
    public var staleAt: UnixTime?
    public var relevance: Double?
    public var alertTitle: String?
    public var alertBody: String?
    public var alertSound: String?

    public init(staleAt: UnixTime? = nil, relevance: Double? = nil, alertTitle: String? = nil,
                alertBody: String? = nil, alertSound: String? = nil) {
        self.staleAt = staleAt
        self.relevance = relevance
        self.alertTitle = alertTitle
        self.alertBody = alertBody
        self.alertSound = alertSound
    }
}

/// Options of End (`reason`, `dismissal`, `dismiss-at`), as the client sent them; the registry validates.
public struct EndOptions: Equatable, Sendable {
    /// `completed`, `cancelled` or `ended` (the default).
    public var reason: String?
    /// `default` (keep the final card up to the default delay) or `immediate`.
    public var dismissal: String?
    /// When to close the final card (clamped to the maximum delay; a past time means now).
    /// `dismissal` `immediate` wins over it.
    public var dismissAt: UnixTime?

    public init(reason: String? = nil, dismissal: String? = nil, dismissAt: UnixTime? = nil) {
        self.reason = reason
        self.dismissal = dismissal
        self.dismissAt = dismissAt
    }
}

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

/// How texts are rendered for a consumer: GNOME Shell cards show no seconds.
public struct RenderStyle: Equatable, Hashable, Sendable {
    public var showSeconds: Bool

    public init(showSeconds: Bool = true) {
        self.showSeconds = showSeconds
    }

    public static let standard = RenderStyle(showSeconds: true)
}
