import CNotify

/// Signals from the server: its name got an owner or lost it (the cards are sent again to the
/// next one), a card was closed (by the user, by us, or expired), a card's button was pressed.
extension NotificationEngine {
    /// The server's name got an owner. Handled one iteration later, so libnotify's proxy has
    /// seen the same NameOwnerChanged first.
    func serverAppeared(owner: String) {
        context.invoke { self.useServer(owner: owner) }
    }

    func useServer(owner: String) {
        guard !stopping, owner != link.owner else { return }
        takeBack(inbox.closeLane())
        link.owner = owner
        dropNotifications()
        let info = ServerWatch.readServerInfo()
        link.profile = overrides.profile(for: info)
        scheduler.minimumIdenticalInterval = link.profile.minimumIdenticalInterval
        link.reported = true
        inbox.publish(serverInfo: info, profile: link.profile)
        inbox.callbacks.onServerChanged?(info)
        resubmitLiveCards()
        pump()
    }

    /// The server is gone: its ids mean nothing now; the cards wait for the next server.
    func serverVanished() {
        guard !stopping, link.owner != nil || !link.reported else { return }
        takeBack(inbox.closeLane())
        link.owner = nil
        link.reported = true
        cancelTimer()
        dropNotifications()
        inbox.publish(serverInfo: nil, profile: link.profile)
        inbox.callbacks.onServerChanged?(nil)
    }

    func dropNotifications() {
        link.replies?.forgetAwaited()
        for id in cards.keys { scheduler.answered(id) }
        for id in Array(cards.keys) {
            cards[id]?.notification = nil
            cards[id]?.resumeServerID = nil
        }
    }

    /// libnotify's "closed": libnotify forgets the server id after this, so the card's next
    /// show is a new notification (from a new object: a closed one never reports again).
    func notificationClosed(activityID: String, notification: UnsafeMutablePointer<NotifyNotification>,
                            reason: Int32, serverID: Int32) {
        takeBack(inbox.closeLane())
        defer { lendSteadyCards() }
        guard var live = cards[activityID], live.notification?.pointer == notification else { return }
        live.notification = nil
        switch reason {
        case NOTIFY_CLOSED_REASON_DISMISSED.rawValue:
            let alertWaits = scheduler.discardRoutine(id: activityID)
            live.closedByUser = !alertWaits
            cards[activityID] = live
            inbox.callbacks.onClosedByUser?(activityID)
            fillFreePlace()
        case NOTIFY_CLOSED_REASON_API_REQUEST.rawValue:
            cards[activityID] = live
        default:
            // Expired or undefined: the server may still list it (KDE), so replace that id next time.
            live.resumeServerID = serverID
            cards[activityID] = live
        }
    }

    /// A card button was pressed.
    func actionInvoked(activityID: String, actionKey: String) {
        guard cards[activityID] != nil else { return }
        inbox.callbacks.onAction?(activityID, actionKey)
    }
}
