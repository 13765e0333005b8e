/// The lifecycle state of an activity (ActivityKit's `ActivityState`, plus `paused`).
public enum ActivityStatus: String, Codable, Sendable, CaseIterable {
    case active, paused, stale, ended, dismissed

    /// Active, paused and stale activities are live: they count towards the limit and the compact view.
    public var isLive: Bool { self == .active || self == .paused || self == .stale }
}
