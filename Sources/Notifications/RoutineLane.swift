/// The cards whose routine replaces may leave from the daemon's own thread, without waking the
/// card thread: a tick's card then costs one hand-off between threads (to GDBus's worker, which
/// writes it), where it cost three (to the card thread, to the worker, and the answer back).
///
/// The card thread opens the lane when it has nothing to do, for each card the server shows in
/// a steady state (shown, its id known, not closed by the user, nothing waiting for it), with
/// what a replace needs and the card's pacing. It takes the lane back, with what went through
/// it, before it does anything else. A card that cannot go through the lane (its slot is not
/// open, its buttons changed, an answer is awaited, anything else is queued) goes to the card
/// thread as before. Every member runs under `PresenterInbox`'s lock.
struct RoutineLane {
    /// One card's standing on the server, and its pacing.
    struct Entry {
        let notification: LibnotifyNotification
        let serverID: Int32
        let actions: [CardButton]
        let sourceSlot: Int
        /// When its last call started (GLib's monotonic seconds).
        var lastSentAt: Double?
        /// Its last card is on its way and not answered yet: the next one waits (the card thread's rule).
        var awaitingAnswer: Bool
        /// The latest card sent through the lane, for the card thread to keep.
        var sentCard: Card?
    }

    /// What every replace through the lane needs: where it goes, and how cards render there.
    /// A class: the lane reads it on every tick, and a struct with a weak reference in it was
    /// copied (a weak-reference copy) at each read.
    final class Route {
        weak var engine: NotificationEngine?
        let server: String
        let connection: OpaquePointer
        let replies: RoutineReplyFilter
        let profile: ServerProfile
        let minimumInterval: Double

        init(engine: NotificationEngine, server: String, connection: OpaquePointer, replies: RoutineReplyFilter,
             profile: ServerProfile, minimumInterval: Double) {
            self.engine = engine
            self.server = server
            self.connection = connection
            self.replies = replies
            self.profile = profile
            self.minimumInterval = minimumInterval
        }
    }

    /// What the card thread gets back when it takes the lane.
    struct Handover {
        var entries: [String: Entry] = [:]
        var identitySentAt: [String: Double] = [:]
    }

    private(set) var route: Route?
    private var entries: [String: Entry] = [:]
    /// When each recently sent identity went out (servers that drop identical notifications).
    private var identitySentAt: [String: Double] = [:]

    var isOpen: Bool { route != nil }

    /// Opens the lane for `entries` (their pacing as the card thread's scheduler has it).
    mutating func open(_ route: Route, entries: [String: Entry], identitySentAt: [String: Double]) {
        self.route = route
        self.entries = entries
        self.identitySentAt = identitySentAt
    }

    /// Closes the lane and gives back what went through it.
    mutating func close() -> Handover {
        defer {
            route = nil
            entries = [:]
            identitySentAt = [:]
        }
        return Handover(entries: entries, identitySentAt: identitySentAt)
    }

    /// Sends `card` as a routine replace of the card of `id` if the lane is open for it and its
    /// slot is open at `now`; false when it must go to the card thread instead.
    mutating func send(id: String, card: Card, now: Double) -> Bool {
        guard let route, var entry = entries[id], !entry.awaitingAnswer, let engine = route.engine else { return false }
        // `CardScheduler`'s rule and tolerance. A card sent late (a busy loop) makes the next
        // ticks early by as much: they go through the card thread, which holds each for its
        // slot, until the card is back on its ticks (1 % of the interval a tick).
        let tolerance = route.minimumInterval / 100
        if let sent = entry.lastSentAt, now < sent + route.minimumInterval - tolerance { return false }
        let request = NotificationRequest.make(card: card, profile: route.profile, alert: nil, firstShow: false,
                                               sourceSlot: entry.sourceSlot)
        guard !request.summary.isEmpty, request.actions == entry.actions,
              !(route.profile.urgencyAppliesLate && request.urgency != .low) else { return false }
        let interval = route.profile.minimumIdenticalInterval
        var identity: String?
        if interval > 0 {
            identitySentAt = identitySentAt.filter { now - $0.value < interval }
            let key = request.identityKey
            guard identitySentAt[key] == nil else { return false }
            identity = key
        }
        guard RoutineReplace.send(request, replacing: entry.notification, serverID: entry.serverID, of: id,
                                  to: route.server, engine: engine, on: route.connection, replies: route.replies,
                                  viaLane: true) else { return false }
        entry.lastSentAt = now
        entry.awaitingAnswer = true
        entry.sentCard = card
        entries[id] = entry
        if let identity { identitySentAt[identity] = now }
        return true
    }

    /// The server answered a replace sent through the lane with the id it replaced: the card's
    /// next one may go. False when the lane is no longer open for it (the card thread took it
    /// back, so the answer is the card thread's).
    mutating func answered(id: String, notification: LibnotifyNotification) -> Bool {
        guard route != nil, var entry = entries[id], entry.notification === notification else { return false }
        entry.awaitingAnswer = false
        entries[id] = entry
        return true
    }
}
