/// When each activity's card may go out: at most one Notify per activity per
/// `minimumInterval`, the latest card winning, an alert never lost; and never an identical
/// notification within `minimumIdenticalInterval` (KDE Plasma). Pure: time is a parameter,
/// so the presenter's thread only asks "what is due now, and when next?".
///
/// A card's slot counts from when the one before it could go (its own slot, its arrival, or
/// the server's answer to the card before, whichever came last), not from when the thread got
/// round to it: so a card replaced every second stays on its ticks. Counted from each call's
/// actual moment (or from the server's answer, as it was), every card went the wake-up's or the
/// answer's latency after the one before plus a second, and the card fell behind the panel
/// (10 ms a tick on dunst under load: half a second after a minute, then a tick skipped).
public struct CardScheduler: Sendable {
    /// A card waiting for its slot, with the alert it must carry (the latest one submitted).
    public struct Pending: Sendable, Equatable {
        public var id: String
        public var card: Card
        public var alert: CardAlert?
        /// When it was submitted (the latest submission, when one replaced another).
        public var submittedAt: Double
    }

    public let minimumInterval: Double
    public var minimumIdenticalInterval: Double

    private var pending: [String: Pending] = [:]
    /// Pending ids in submission order, so due cards go out first come, first served.
    private var order: [String] = []
    private var lastSentAt: [String: Double] = [:]
    /// When each recently sent identity went out (entries older than the identical interval are pruned).
    private var identitySentAt: [String: Double] = [:]
    /// Ids whose last card is on its way and not yet answered by the server: their next card
    /// waits for the answer (`answered`), so no two cards of one activity are ever in flight.
    private var unanswered: Set<String> = []
    /// When the server answered the last card of each id that waited for its answer.
    private var answeredAt: [String: Double] = [:]
    /// How long a card waits for the server's answer to the one before it: a server that never
    /// answers (hung, or stopped) holds an activity's cards no longer than a blocking call
    /// would have (GDBus's and libnotify's default timeout).
    public static let answerTimeout = 25.0

    public init(minimumInterval: Double, minimumIdenticalInterval: Double = 0) {
        self.minimumInterval = minimumInterval
        self.minimumIdenticalInterval = minimumIdenticalInterval
    }

    /// Queues `card` for `id`, replacing a card still waiting; an alert already waiting stays
    /// unless a newer alert replaces it (its sound kept when the newer one has none).
    public mutating func submit(id: String, card: Card, alert: CardAlert?, now: Double) {
        var merged = alert
        if let waiting = pending[id]?.alert {
            if var newer = alert {
                if newer.soundName == nil { newer.soundName = waiting.soundName }
                merged = newer
            } else {
                merged = waiting
            }
        }
        if pending[id] == nil { order.append(id) }
        pending[id] = Pending(id: id, card: card, alert: merged, submittedAt: now)
    }

    /// Takes the cards whose slot is open at `now` and records each as sent when it could first
    /// go: its slot, its submission or the answer it waited for, whichever came last (never
    /// after `now`). `identity` gives what the server compares (see `NotificationRequest.identityKey`).
    public mutating func takeDue(now: Double, identity: (Pending) -> String) -> [Pending] {
        var due: [Pending] = []
        identitySentAt = identitySentAt.filter { now - $0.value < minimumIdenticalInterval }
        for id in order {
            guard let item = pending[id], !isAwaitingAnswer(id, now: now) else { continue }
            let opens = slotOpens(for: item, identity: identity)
            guard opens <= now else { continue }
            let answered = unanswered.remove(id) == nil ? answeredAt[id] : now  // the answer's timeout ran out now
            answeredAt[id] = nil
            due.append(item)
            pending[id] = nil
            lastSentAt[id] = min(now, max(opens, item.submittedAt, answered ?? -Double.infinity))
            if minimumIdenticalInterval > 0 { identitySentAt[identity(item)] = now }
        }
        order.removeAll { pending[$0] == nil }
        return due
    }

    /// The earliest time a waiting card becomes due (-infinity: due at once), or nil when nothing waits.
    public func nextDueTime(identity: (Pending) -> String) -> Double? {
        order.compactMap { id in
            pending[id].map { item in
                let opens = slotOpens(for: item, identity: identity)
                guard unanswered.contains(id) else { return opens }
                return max(opens, (lastSentAt[id] ?? -Double.infinity) + Self.answerTimeout)
            }
        }.min()
    }

    /// Drops whatever waits for `id` and its rate-limit history (the card was closed).
    public mutating func forget(id: String) {
        pending[id] = nil
        lastSentAt[id] = nil
        unanswered.remove(id)
        answeredAt[id] = nil
        order.removeAll { $0 == id }
    }

    /// Drops a waiting routine update for `id` but keeps a waiting alert; returns whether an alert waits.
    @discardableResult
    public mutating func discardRoutine(id: String) -> Bool {
        if pending[id]?.alert != nil { return true }
        pending[id] = nil
        order.removeAll { $0 == id }
        return false
    }

    /// Drops everything waiting (e.g. the cards were hidden), keeping the rate-limit history.
    public mutating func discardAll() {
        pending.removeAll()
        order.removeAll()
    }

    /// Records that the call for the card of `id` started at `time` (after `takeDue` handed it
    /// out): when that is more than `lateCallTolerance` after the moment `takeDue` recorded,
    /// its next slot counts from then, so a card sent late in a busy round (blocking calls go
    /// out one after another) still keeps a whole interval before its next one. A call late by
    /// less (the thread's wake-up) keeps the schedule, or every tick would add its latency.
    public mutating func markSent(_ id: String, at time: Double) {
        if let taken = lastSentAt[id], time - taken > Self.lateCallTolerance { lastSentAt[id] = time }
    }

    /// How late a call may start after its slot and still count as on time (see `markSent`).
    public static let lateCallTolerance = 0.01

    /// The card of `id` went out without waiting for the server's answer: its next card waits
    /// for `answered`.
    public mutating func awaitAnswer(_ id: String) {
        unanswered.insert(id)
    }

    /// The server answered the last card of `id` at `time`: its next card may go once its
    /// slot opens (counted from that card, not from the answer) and not before `time`.
    public mutating func answered(_ id: String, at time: Double) {
        guard unanswered.remove(id) != nil else { return }
        answeredAt[id] = time
    }

    /// The ids with a card waiting, in submission order.
    public var waitingIDs: [String] { order }

    /// What waits for `id`, if anything.
    public func waiting(_ id: String) -> Pending? { pending[id] }

    /// Whether the last card of `id` still waits for the server's answer at `now` (it stops
    /// waiting `answerTimeout` after it went).
    private func isAwaitingAnswer(_ id: String, now: Double) -> Bool {
        guard unanswered.contains(id) else { return false }
        return now < (lastSentAt[id] ?? -Double.infinity) + Self.answerTimeout
    }

    /// When `item` may go out: never sooner than `minimumInterval` after its last card (DESIGN.md:
    /// at most one Notify per activity per second); its identity (costly to build) is only
    /// asked for when identical notifications are limited.
    private func slotOpens(for item: Pending, identity: (Pending) -> String) -> Double {
        var opens = -Double.infinity
        if let sent = lastSentAt[item.id] { opens = sent + minimumInterval }
        if minimumIdenticalInterval > 0, let sent = identitySentAt[identity(item)] {
            opens = max(opens, sent + minimumIdenticalInterval)
        }
        return opens
    }
}
