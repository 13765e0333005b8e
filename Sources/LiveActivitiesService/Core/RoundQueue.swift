import ActivityModel

/// The events waiting for the next publishing round, and the rounds' pace under a flood: a
/// token bucket of `burst` rounds that refills at `burst` rounds per interval. A round with a
/// token runs at once (a client that waits for its change sees it at once); one without waits
/// for the next token, at most `interval / burst` (6.25 ms at the daemon's 50 ms), and takes
/// with it everything that came meanwhile. The pace is the same as "`burst` rounds per
/// interval", but the longest wait is one token's, not the rest of the interval (it was up to
/// 46 ms, the p99 of a push applied right after the one before: issue 29).
/// It is the core's, so the core hands the publisher each round whole, at one moment.
struct RoundQueue {
    /// Rounds that run at once after a quiet time; also the rounds the bucket refills per interval.
    static let burst = 8

    private var unpublished: [ActivityEvent] = []
    private var pending = false
    /// Rounds that may run at once now (below zero: owed by rounds already promised a time),
    /// as of `refilledAt` (monotonic seconds).
    private var tokens = Double(Self.burst)
    private var refilledAt = -Double.infinity

    /// Queues `events`. When no round was due yet, says when one should run: 0 (after the
    /// messages at hand) or the seconds until its token; nil when one is due already.
    mutating func add(_ events: [ActivityEvent], now: Double, interval: Double) -> Double? {
        unpublished += events
        guard !pending else { return nil }
        pending = true
        guard interval > 0 else { return 0 }
        let perSecond = Double(Self.burst) / interval
        tokens = min(Double(Self.burst), tokens + (now - refilledAt) * perSecond)
        refilledAt = now
        tokens -= 1
        return tokens >= 0 ? 0 : -tokens / perSecond
    }

    /// The events of this round, taken (none when nothing is queued).
    mutating func take() -> [ActivityEvent] {
        pending = false
        guard !unpublished.isEmpty else { return [] }
        defer { unpublished = [] }
        return unpublished
    }
}
