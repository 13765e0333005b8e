/// The dynamic content of a Live Activity with its stale date and relevance, as in ActivityKit.
///
/// `staleDate` is sent as the daemon's `stale-at` (whole unix seconds: the daemon's times
/// have second precision), `relevanceScore` as `relevance`.
public struct ActivityContent<State>: Equatable, Hashable where State: Decodable & Encodable & Hashable {
    public var state: State
    public var staleDate: Date?
    public var relevanceScore: Double
    /// Linux addition: the progress in segments and points, drawn by every panel as a
    /// segmented bar (nil: the kind's own phases, if any).
    public var segments: ProgressSegments?

    public init(state: State, staleDate: Date?, relevanceScore: Double = 0.0, segments: ProgressSegments? = nil) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
        self.segments = segments
    }
}

extension ActivityContent: Sendable where State: Sendable {}

/// Where an activity is in its life cycle, as in ActivityKit.
///
/// The daemon's `paused` status (a paused timer) reads as `active`: the activity is live and
/// takes updates. `pending` is an activity requested with a future `start` (iOS 26): it has no
/// card until then, and changes to `active` by itself (`activityStateUpdates` delivers it).
public enum ActivityState: String, Equatable, Hashable, Sendable, Codable {
    case active, ended, dismissed, stale, pending

    /// The state for a daemon status (`active`, `paused`, `stale`, `ended`, `dismissed`, `pending`).
    init(status: String) {
        switch status {
        case "pending": self = .pending
        case "stale": self = .stale
        case "ended": self = .ended
        case "dismissed": self = .dismissed
        default: self = .active
        }
    }

    /// How far along its life an activity in this state is; it never goes back.
    var lifecycleRank: Int {
        switch self {
        case .pending: 0
        case .active, .stale: 1
        case .ended: 2
        case .dismissed: 3
        }
    }
}

/// When the card of an ended activity goes away, as in ActivityKit: after up to four hours
/// (`default`), at once (`immediate`), or at a date within four hours (`after(_:)`).
public struct ActivityUIDismissalPolicy: Equatable, Hashable, Sendable {
    /// Which of the three dismissal policies this is.
    enum Rule: Equatable, Hashable, Sendable {
        case standard, immediate
        case after(Date)
    }

    let rule: Rule

    public static let `default` = ActivityUIDismissalPolicy(rule: .standard)
    public static let immediate = ActivityUIDismissalPolicy(rule: .immediate)
    public static func after(_ date: Date) -> ActivityUIDismissalPolicy { ActivityUIDismissalPolicy(rule: .after(date)) }
}

/// The alert of an update, as in ActivityKit: the card pops up again with this title and body
/// and plays the sound.
///
/// Differs: `title` and `body` are `String` (ActivityKit takes `LocalizedStringResource`,
/// which Foundation on Linux lacks); string literals port unchanged. `AlertSound.named(_:)`
/// takes a freedesktop sound name (`complete`, `alarm-clock-elapsed`), not a file in the bundle.
public struct AlertConfiguration: Equatable, Hashable, Sendable {
    /// The sound of an alert.
    public struct AlertSound: Equatable, Hashable, Sendable {
        let name: String?
        /// The desktop's default notification sound.
        public static let `default` = AlertSound(name: nil)
        /// A sound from the freedesktop sound theme, by name.
        public static func named(_ name: String) -> AlertSound { AlertSound(name: name) }
    }

    public var title: String
    public var body: String
    public var sound: AlertSound

    public init(title: String, body: String, sound: AlertSound) {
        self.title = title
        self.body = body
        self.sound = sound
    }
}

/// How an activity receives remote updates, as in ActivityKit: `nil` is local updates only;
/// `.token` asks the daemon for a push token, `.channel(id)` follows a broadcast channel
/// (DESIGN.md's push over MQTT). A daemon without push starts the activity without them.
public struct PushType: Equatable, Hashable, Sendable {
    let channelID: String?
    /// Updates through the activity's own push token (`Activity.pushToken`).
    public static let token = PushType(channelID: nil)
    /// Updates through a broadcast channel.
    public static func channel(_ channelID: String) -> PushType { PushType(channelID: channelID) }
}
