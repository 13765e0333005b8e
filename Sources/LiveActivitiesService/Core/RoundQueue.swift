import ActivityModel

/// The events waiting for the next publishing round, and the rounds' pace under a flood: the
/// first `burst` rounds of each interval run at once (a client that waits for its change sees
/// it at once), then one more round ends the interval with everything that came meanwhile.
/// It is the core's, so the core hands the publisher each round whole, at one moment.
struct RoundQueue {
    /// Rounds per interval that run at once; later ones wait for the interval's end.
    static let burst = 8

    private var unpublished: [ActivityEvent] = []
    private var pending = false
    /// The current pacing interval (monotonic seconds) and the rounds run in it.
    private var windowStart = -Double.infinity
    private var roundsInWindow = 0

    /// Queues `events`. When no round was due yet, says when one should run: 0 (after the
    /// messages at hand) or the seconds to the interval's end; nil when one is due already.
    mutating func add(_ events: [ActivityEvent], now: Double, interval: Double) -> Double? {
        unpublished += events
        guard !pending else { return nil }
        pending = true
        guard interval > 0 else { return 0 }
        if now - windowStart >= interval {
            windowStart = now
            roundsInWindow = 0
        }
        return roundsInWindow < Self.burst ? 0 : windowStart + interval - now
    }

    /// The events of this round, taken (none when nothing is queued).
    mutating func take() -> [ActivityEvent] {
        pending = false
        guard !unpublished.isEmpty else { return [] }
        roundsInWindow += 1
        defer { unpublished = [] }
        return unpublished
    }
}
