/// Lending and taking back the routine lane (`RoutineLane`): while the card thread has nothing
/// to do, steady cards' routine replaces leave from the daemon's thread; whenever the card
/// thread wakes, it takes the lane back first, with what went through it, so its own state
/// (pacing, the latest card, the answers awaited) is whole before it acts.
extension NotificationEngine {
    /// Opens the lane for every card the server shows in a steady state. Not while someone
    /// waits for the cards to settle: they learn it from the answers, which the lane would
    /// keep from this thread.
    func lendSteadyCards() {
        guard settledWaiters.isEmpty, !hidden, !stopping, RoutineReplace.isAvailable, let server = link.owner,
              let connection = link.watch?.connection, let routineReplies = link.replies else { return }
        var entries: [String: RoutineLane.Entry] = [:]
        for (id, live) in cards where !live.closedByUser && live.resumeServerID == nil && adopted[id] == nil {
            guard scheduler.waiting(id) == nil, let notification = live.notification else { continue }
            let serverID = notification.serverID
            guard serverID > 0 else { continue }
            entries[id] = RoutineLane.Entry(notification: notification, serverID: serverID,
                                            actions: notification.appliedActions,
                                            sourceSlot: link.profile.sourcePerCard ? live.sourceSlot : 0,
                                            lastSentAt: scheduler.lastSent(id), awaitingAnswer: scheduler.isUnanswered(id),
                                            sentCard: nil)
        }
        guard !entries.isEmpty else { return }
        let route = RoutineLane.Route(engine: self, server: server, connection: connection, replies: routineReplies,
                                      profile: link.profile, minimumInterval: scheduler.minimumInterval)
        inbox.openLane(route, entries: entries, identitySentAt: scheduler.recentIdentities)
    }

    /// Makes what went through the lane this thread's: each card's last call and whether its
    /// answer is still awaited, the latest card sent, the identities sent.
    func takeBack(_ lent: RoutineLane.Handover) {
        for (id, entry) in lent.entries {
            if let sent = entry.lastSentAt { scheduler.recordSent(id, at: sent) }
            if entry.awaitingAnswer { scheduler.awaitAnswer(id) } else { scheduler.answered(id) }
            if let card = entry.sentCard { cards[id]?.card = card }
        }
        scheduler.recordIdentities(lent.identitySentAt)
    }
}
