/// Options of Start (`id`, `stale-at`, `relevance`, `app-name`, `start-at`, `app-id`).
public struct StartOptions: Equatable, Sendable {
    /// A client-chosen id; validated (1 to 64 of `[A-Za-z0-9_]`). Nil: the registry makes one.
    public var id: String?
    public var staleAt: UnixTime?
    public var relevance: Double?
    public var appName: String?
    /// When the activity starts; a future time makes it `pending` until then, a past one starts it now.
    public var startAt: UnixTime?
    /// The desktop entry id of the application (`app-id`; see `DesktopEntryID`).
    public var appID: String?

    public init(id: String? = nil, staleAt: UnixTime? = nil, relevance: Double? = nil, appName: String? = nil,
                startAt: UnixTime? = nil, appID: String? = nil) {
        self.appID = appID
        self.id = id
        self.staleAt = staleAt
        self.relevance = relevance
        self.appName = appName
        self.startAt = startAt
    }
}

/// Options of Update (`stale-at`, `relevance`, `alert-title`, `alert-body`, `alert-sound`).
public struct UpdateOptions: Codable, Equatable, Sendable {
    public var staleAt: UnixTime?
    public var relevance: Double?
    public var alertTitle: String?
    public var alertBody: String?
    public var alertSound: String?
    /// The state becomes exactly the keys given (with the kind's defaults), as at Start,
    /// instead of their merge into the current state: how a client clears a key it no longer
    /// has (LiveActivityKit sends a whole `ContentState` whose optionals may have become nil).
    public var replaceState: Bool

    public init(staleAt: UnixTime? = nil, relevance: Double? = nil, alertTitle: String? = nil,
                alertBody: String? = nil, alertSound: String? = nil, replaceState: Bool = false) {
        self.staleAt = staleAt
        self.relevance = relevance
        self.alertTitle = alertTitle
        self.alertBody = alertBody
        self.alertSound = alertSound
        self.replaceState = replaceState
    }
}

/// Options of End (`reason`, `dismissal`, `dismiss-at`); the reason is already parsed
/// (`EndReason(parsing:)`), the registry validates the rest.
public struct EndOptions: Equatable, Sendable {
    /// Nil: `ended`.
    public var reason: EndReason?
    /// `default` (keep the final card up to the default delay) or `immediate`.
    public var dismissal: String?
    /// When to close the final card (clamped to the maximum delay; a past time means now).
    /// `dismissal` `immediate` wins over it.
    public var dismissAt: UnixTime?
    /// The final state replaces the current one instead of being merged (see `UpdateOptions`).
    public var replaceState: Bool

    public init(reason: EndReason? = nil, dismissal: String? = nil, dismissAt: UnixTime? = nil, replaceState: Bool = false) {
        self.reason = reason
        self.dismissal = dismissal
        self.dismissAt = dismissAt
        self.replaceState = replaceState
    }
}
