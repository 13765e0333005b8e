import CNotify

/// Sending, rate-limited: every card whose once-a-second slot is open goes out (a routine
/// replace of a shown card without waiting for the server, when it can), then one timer is
/// armed for the next slot; and the server's answer to a routine replace comes back here.
extension NotificationEngine {
    /// Sends every card whose slot is open, then arms one timer for the next slot.
    func pump() {
        defer {
            reportIfSettled()
            lendSteadyCards()
        }
        cancelTimer()
        guard link.owner != nil, !hidden, !stopping else { return }
        // Each waiting card's request is built once per round: the identity check (KDE) and
        // the Notify call use the same one.
        var requests: [String: NotificationRequest] = [:]
        func request(for item: CardScheduler.Pending) -> NotificationRequest {
            if let built = requests[item.id] { return built }
            let built = makeRequest(item)
            requests[item.id] = built
            return built
        }
        for item in scheduler.takeDue(now: monotonicSeconds(), identity: { request(for: $0).identityKey }) {
            let built = request(for: item)
            scheduler.markSent(item.id, at: monotonicSeconds())  // the call starts now
            send(item, request: built)
        }
        guard let next = scheduler.nextDueTime(identity: { request(for: $0).identityKey }) else { return }
        let delay = max(0, next - monotonicSeconds())
        let milliseconds = UInt32(min(delay * 1000 + 1, 3_600_000).rounded(.up))
        timer = context.schedule(afterMilliseconds: milliseconds) { self.timerFired() }
    }

    /// Tells those waiting for it that every card handed over went out (or was dropped).
    func reportIfSettled() {
        // A routine replace counts once the server answered it (`RoutineReplyFilter`).
        let answered = (link.replies?.awaitedCount ?? 0) == 0
        guard !settledWaiters.isEmpty,
              scheduler.waitingIDs.isEmpty && answered || link.owner == nil && link.reported else { return }
        let waiters = settledWaiters
        settledWaiters = []
        for waiter in waiters { waiter() }
    }

    func timerFired() {
        if let timer { g_source_unref(timer) }
        timer = nil
        takeBack(inbox.closeLane())
        pump()
    }

    func cancelTimer() {
        if let timer { MainContextHandle.cancel(timer) }
        timer = nil
    }

    /// The Notify request of a waiting card; a card the server has not shown yet is a first show.
    func makeRequest(_ item: CardScheduler.Pending) -> NotificationRequest {
        let live = cards[item.id]
        let firstShow = live?.notification == nil && (live?.resumeServerID ?? adopted[item.id]) == nil
        let slot = link.profile.sourcePerCard ? live?.sourceSlot ?? 0 : 0
        return NotificationRequest.make(card: item.card, profile: link.profile, alert: item.alert, firstShow: firstShow,
                                        sourceSlot: slot)
    }

    func send(_ item: CardScheduler.Pending, request: NotificationRequest) {
        guard cards[item.id] != nil, makeRoom(for: item.id, alert: item.alert != nil), var live = cards[item.id] else { return }
        if link.profile.urgencyAppliesLate, item.alert != nil {
            // A replace cannot pop there: the alert is a new notification (its old "closed" is ignored).
            closeOnServer(live.notification)
            live.notification = nil
            live.resumeServerID = nil
            adopted[item.id] = nil
        }
        let resume = live.resumeServerID ?? adopted.removeValue(forKey: item.id)
        guard let notification = live.notification
                ?? LibnotifyNotification(activityID: item.id, engine: self, serverID: resume) else {
            logWarning("cannot create a notification for \(item.id)")
            return
        }
        let previousID = notification.serverID
        live.notification = notification
        live.resumeServerID = nil
        cards[item.id] = live
        // Where urgency applies one Notify late, a normal send goes out as a pair: the card
        // without its sound, then the same card at low with it (the sound plays once: `silenced`).
        let settles = link.profile.urgencyAppliesLate && request.urgency != .low
        if item.alert == nil, !settles, resume == nil, previousID > 0, !request.summary.isEmpty,
           RoutineReplace.isAvailable, let server = link.owner, let connection = link.watch?.connection, let routineReplies = link.replies {
            // A routine replace of a shown card: sent without waiting for the server's answer.
            if notification.appliedActions != request.actions { notification.apply(request) }
            // Its next card waits for the server's answer, as when the call blocked (a server that
            // never answers holds back this card's routine updates, not the thread). The answer
            // comes on a later iteration of this thread, so awaiting it after sending is in time.
            if RoutineReplace.send(request, replacing: notification, serverID: previousID, of: item.id, to: server,
                                   engine: self, on: connection, replies: routineReplies) {
                scheduler.awaitAnswer(item.id)
                return
            }
        }
        notification.apply(settles ? request.silenced() : request)
        do {
            try notification.show()
            if settles {
                notification.apply(request.settled())
                try notification.show()
            }
        } catch {
            logWarning("showing card \(item.id) failed: \(error)")
        }
        let serverID = notification.serverID
        if serverID > 0 && serverID != previousID || resume != nil && serverID > 0 {
            inbox.callbacks.onNotificationID?(item.id, UInt32(bitPattern: serverID))
        }
    }

    /// The server answered a routine replace. A failure is said, as a failed show is. A new id
    /// (the server no longer had the old one) becomes the card's; if the card went meanwhile
    /// (the user closed it), the new one is closed.
    func routineReplaceAnswered(_ replace: RoutineReplaceTarget, answer: Result<Int32, LibnotifyError>) {
        takeBack(inbox.closeLane())
        scheduler.answered(replace.activityID)
        defer { pump() }
        let serverID: Int32
        switch answer {
        case .failure(let error):
            logWarning("showing card \(replace.activityID) failed: \(error)")
            return
        case .success(let answered):
            serverID = answered
        }
        guard serverID > 0, serverID != replace.replacedID else { return }
        if cards[replace.activityID]?.notification === replace.notification {
            replace.notification.adoptServerID(serverID)
            inbox.callbacks.onNotificationID?(replace.activityID, UInt32(bitPattern: serverID))
        } else if let server = link.owner, let connection = link.watch?.connection {
            RoutineReplace.close(serverID: serverID, at: server, on: connection)
        }
    }
}
