/// The lifecycle state of an activity (ActivityKit's `ActivityState`, plus `paused`).
public enum ActivityStatus: String, Codable, Sendable, CaseIterable {
    case active, paused, stale, ended, dismissed
    /// Started with a future `start-at`: listed and on the bus, but no card and no place in
    /// the compact view until it becomes active by itself at that time.
    case pending

    /// Active, paused and stale activities are live: they count towards the limit and the compact view.
    public var isLive: Bool { self == .active || self == .paused || self == .stale }

    /// Whether the activity takes one of the `max-live-activities` places: live or pending.
    public var holdsPlace: Bool { isLive || self == .pending }
}
