/// One activity with everything needed to show it and to restore it after a restart.
public struct Activity: Codable, Equatable, Sendable {
    public let id: ActivityID
    /// The kind's name.
    public let kind: String
    /// Fixed at Start, after defaults and derived values were applied.
    public internal(set) var attributes: [String: Value]
    /// The content state; Update merges into it.
    public internal(set) var state: [String: Value]
    public internal(set) var status: ActivityStatus
    public internal(set) var startedAt: UnixTime
    public internal(set) var updatedAt: UnixTime
    public internal(set) var staleAt: UnixTime?
    public internal(set) var endedAt: UnixTime?
    public internal(set) var reason: EndReason?
    public internal(set) var relevance: Double
    public internal(set) var appName: String?
    /// When an ended activity's card closes.
    public internal(set) var dismissAt: UnixTime?
    /// The live timer, when the kind has one and its attributes define it.
    public internal(set) var timer: TimerState?
    /// The timer's phases in order, resolved at Start.
    public internal(set) var phases: [PhaseState]
    /// The phase the activity was last seen in (the next tick alerts when it moves on).
    public internal(set) var phaseIndex: Int
    /// When the kind's lifetime cap ends the activity.
    public internal(set) var expiresAt: UnixTime?
    /// Updates to apply later (Update option `at`), earliest first; nil when there are none
    /// (absent in records of older versions). A pending activity's `startedAt` is its start time.
    public internal(set) var scheduledUpdates: [ScheduledUpdate]? = nil
    /// The desktop entry id of the application the activity belongs to (Start option `app-id`,
    /// or the Flatpak id of its sender); nil (absent in records of older versions): none, and
    /// its card carries the daemon's own.
    public internal(set) var appID: String? = nil

    /// Whether the activity is active, paused or stale.
    public var isLive: Bool { status.isLive }

    /// The scheduled updates, earliest first (empty when there are none).
    public var timeline: [ScheduledUpdate] { scheduledUpdates ?? [] }
}

/// The live timer of an activity, as absolute times so a restarted daemon shows the right time.
///
/// Its *position* is the running time excluding pauses: `(pausedAt ?? now) - start - pausedTotal`.
public struct TimerState: Codable, Equatable, Sendable {
    /// When the timer starts (may be in the past or the future).
    public internal(set) var start: UnixTime
    /// The length in seconds including extensions; nil for a timer that only counts up.
    public internal(set) var duration: Double?
    /// Seconds added by Extend.
    public internal(set) var extended: Double
    /// Set while paused, and when the activity ended (the timer is then frozen).
    public internal(set) var pausedAt: UnixTime?
    /// Seconds spent paused before the current pause.
    public internal(set) var pausedTotal: Double
    public internal(set) var countsDown: Bool
    var expiry: ExpiryRule
    /// Whether `start` was read from the daemon's own clock ("now": no start was given), so a
    /// wall-clock step moves it with the clock; a start the user gave stays. Nil (absent in
    /// records of older versions) means given.
    public internal(set) var startTakenFromClock: Bool?

    init(start: UnixTime, duration: Double?, extended: Double, pausedAt: UnixTime?, pausedTotal: Double,
         countsDown: Bool, expiry: ExpiryRule, startTakenFromClock: Bool? = nil) {
        self.start = start
        self.duration = duration
        self.extended = extended
        self.pausedAt = pausedAt
        self.pausedTotal = pausedTotal
        self.countsDown = countsDown
        self.expiry = expiry
        self.startTakenFromClock = startTakenFromClock
    }

    /// Seconds of running time at `now`; negative before the start.
    public func position(at now: UnixTime) -> Double {
        (pausedAt ?? now) - start - pausedTotal
    }

    /// Whether the timer advances with the clock.
    public var isRunning: Bool { pausedAt == nil }

    /// The wall time at which the position reaches `target`, while running.
    func wallTime(reaching target: Double) -> UnixTime? {
        isRunning ? start + pausedTotal + target : nil
    }

    /// The wall time at which the timer runs out, while running.
    public var endTime: UnixTime? { duration.flatMap { wallTime(reaching: $0) } }
}

/// A phase of an activity's timer with the position at which it ends (nil: it lasts).
public struct PhaseState: Codable, Equatable, Sendable {
    public let name: String
    public let label: String
    public let end: Double?
}

extension Activity {
    /// The index of the phase the timer position is in at `now`.
    func phaseIndex(at now: UnixTime) -> Int {
        guard let timer, !phases.isEmpty else { return 0 }
        let position = max(0, timer.position(at: now))
        for (index, phase) in phases.enumerated() {
            guard let end = phase.end, position >= end else { return index }
        }
        return phases.count - 1
    }

    /// The position at which phase `index` starts.
    func phaseStart(_ index: Int) -> Double {
        index > 0 ? (phases[index - 1].end ?? 0) : 0
    }
}
