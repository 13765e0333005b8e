/// When each activity's card may go out: at most one Notify per activity per
/// `minimumInterval`, the latest card winning, an alert never lost; and never an identical
/// notification within `minimumIdenticalInterval` (KDE Plasma). Pure: time is a parameter,
/// so the presenter's thread only asks "what is due now, and when next?".
///
/// Two calls of one activity are at least `minimumInterval` less `callTolerance` (1 %) apart,
/// counted from when each call started. A card replaced every second reaches the card thread a
/// little after its tick, by a latency that varies from tick to tick; the tolerance lets each
/// card go as it comes, so the cards stay on their ticks with no timer between the hand-off
/// and the call, and a card held back by a late one (a busy round, a slow answer) catches up
/// by 1 % of the interval a tick. Counted as exactly one interval from the call before, every
/// card went its wake-up's latency after the last plus a second, and the card fell behind the
/// panel (10 ms a tick on dunst under load); counted from the latest moment a card could go,
/// the slot ratcheted to the slowest hand-off seen, and nearly every card then waited for it
/// on a timer of its own (a third wake-up of the card thread per tick).
public struct CardScheduler: Sendable {
    /// A card waiting for its slot, with the alert it must carry (the latest one submitted).
    public struct Pending: Sendable, Equatable {
        public var id: String
        public var card: Card
        public var alert: CardAlert?
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
    public mutating func submit(id: String, card: Card, alert: CardAlert?) {
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
        pending[id] = Pending(id: id, card: card, alert: merged)
    }

    /// Takes the cards whose slot is open at `now` and records each as sent then (`markSent`
    /// moves that to when its call started). `identity` gives what the server compares (see
    /// `NotificationRequest.identityKey`).
    public mutating func takeDue(now: Double, identity: (Pending) -> String) -> [Pending] {
        var due: [Pending] = []
        identitySentAt = identitySentAt.filter { now - $0.value < minimumIdenticalInterval }
        for id in order {
            guard let item = pending[id], !isAwaitingAnswer(id, now: now) else { continue }
            guard slotOpens(for: item, identity: identity) <= now else { continue }
            unanswered.remove(id)  // answered, or the answer's timeout ran out
            due.append(item)
            pending[id] = nil
            lastSentAt[id] = now
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
    /// out; later in a busy round, where blocking calls go out one after another): its next
    /// slot counts from then. An earlier time never moves the slot back.
    public mutating func markSent(_ id: String, at time: Double) {
        if let taken = lastSentAt[id], time > taken { lastSentAt[id] = time }
    }

    /// How much sooner than `minimumInterval` after the last call a card may go: 1 % of the
    /// interval (10 ms a second), the jitter of the card's hand-off from tick to tick.
    public var callTolerance: Double { minimumInterval / 100 }

    /// The card of `id` went out without waiting for the server's answer: its next card waits
    /// for `answered`.
    public mutating func awaitAnswer(_ id: String) {
        unanswered.insert(id)
    }

    /// The server answered the last card of `id`: its next card may go once its slot opens.
    public mutating func answered(_ id: String) {
        unanswered.remove(id)
    }

    /// When the last call for `id` started, if it is remembered.
    public func lastSent(_ id: String) -> Double? { lastSentAt[id] }

    /// Whether the last card of `id` went out without its answer yet.
    public func isUnanswered(_ id: String) -> Bool { unanswered.contains(id) }

    /// Records calls made elsewhere (`RoutineLane`): the last call of `id` started at `time`
    /// (the later of it and the one known is kept).
    public mutating func recordSent(_ id: String, at time: Double) {
        lastSentAt[id] = max(lastSentAt[id] ?? time, time)
    }

    /// The identities sent within the identical interval (when each went out).
    public var recentIdentities: [String: Double] { identitySentAt }

    /// Adds identities sent elsewhere (`RoutineLane`) to those known.
    public mutating func recordIdentities(_ sent: [String: Double]) {
        identitySentAt.merge(sent) { max($0, $1) }
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

    /// When `item` may go out: `minimumInterval` less `callTolerance` after its last call
    /// started (DESIGN.md: at most one Notify per activity per second); its identity (costly
    /// to build) is only asked for when identical notifications are limited.
    private func slotOpens(for item: Pending, identity: (Pending) -> String) -> Double {
        var opens = -Double.infinity
        if let sent = lastSentAt[item.id] { opens = sent + minimumInterval - callTolerance }
        if minimumIdenticalInterval > 0, let sent = identitySentAt[identity(item)] {
            opens = max(opens, sent + minimumIdenticalInterval)
        }
        return opens
    }
}
