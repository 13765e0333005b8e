import CNotify

/// The card state machine of the notification thread: it owns every libnotify object,
/// the server watch and the rate-limit timer, and it is the only code that may block on the
/// server. Every member runs on that thread (inside its GMainLoop); other threads reach it
/// only through `PresenterInbox`. While it has nothing to do, it lends the routine replaces
/// of steady cards to the daemon's thread (`RoutineLane`, `+Lane`), and takes them back first
/// thing whenever it wakes.
final class NotificationEngine: @unchecked Sendable {
    /// One activity's card as the notification thread knows it.
    struct LiveCard {
        var card: Card
        /// The user dismissed it: routine updates stay silent until the next alert.
        var closedByUser = false
        /// The card on the current server, if it was sent.
        var notification: LibnotifyNotification?
        /// A server id to take back on the next show (the server expired the popup, e.g. KDE).
        var resumeServerID: Int32?
        /// Its own notification source on servers that keep few per source (`sourceSlot`).
        var sourceSlot = 0
    }

    let context: MainContextHandle
    let inbox: PresenterInbox
    private let appName: String
    private let overrides: ProfileOverrides
    var scheduler: CardScheduler
    private(set) var profile = ServerProfile.fallback
    var cards: [String: LiveCard] = [:]
    /// Activity ids in the order their cards first came, for servers that show few at a time.
    var cardOrder: [String] = []
    /// Notification ids a previous run of the daemon used, taken back on each card's first show.
    private(set) var adopted: [String: Int32] = [:]
    private var loop: OpaquePointer?
    private(set) var watch: ServerWatch?
    /// The answers to routine replaces, read on GDBus's worker thread.
    private(set) var routineReplies: RoutineReplyFilter?
    /// The unique bus name of the server in use; nil while there is none.
    private(set) var serverOwner: String?
    private var serverReported = false
    private var timer: UnsafeMutablePointer<GSource>?
    private(set) var hidden = false
    private(set) var stopping = false
    /// Callbacks waiting for the moment no card waits for its slot.
    private(set) var settledWaiters: [@Sendable () -> Void] = []

    init(context: MainContextHandle, inbox: PresenterInbox, appName: String, minimumInterval: Double,
         overrides: ProfileOverrides) {
        self.context = context
        self.inbox = inbox
        self.appName = appName
        self.overrides = overrides
        scheduler = CardScheduler(minimumInterval: minimumInterval)
    }

    /// The thread body: the context becomes thread-default before libnotify is first used, so
    /// its proxy, signals and the name watch all live here; then the loop runs until `stop`.
    func run() {
        g_main_context_push_thread_default(context.pointer)
        notify_init(appName)
        loop = g_main_loop_new(context.pointer, la_g_false)
        do {
            let watch = try ServerWatch(engine: self)
            self.watch = watch
            routineReplies = RoutineReplyFilter(connection: watch.connection, context: context, inbox: inbox)
        } catch {
            logWarning("cannot watch the notification server: \(error)")
            serverVanished()
        }
        let context = self.context
        inbox.setWaker { context.invoke { self.drainInbox() } }
        g_main_loop_run(loop)
        tearDown()
    }

    private func tearDown() {
        inbox.setWaker(nil)
        cancelTimer()
        routineReplies?.remove()
        routineReplies = nil
        watch?.cancel()
        flushContext()
        watch = nil
        notify_uninit()
        if let loop { g_main_loop_unref(loop) }
        loop = nil
        flushContext()
        g_main_context_pop_thread_default(context.pointer)
    }

    /// Dispatches whatever is ready so GLib drops what it still holds (unwatch, idle sources).
    private func flushContext() {
        var rounds = 0
        while rounds < 100, g_main_context_iteration(context.pointer, la_g_false) != la_g_false { rounds += 1 }
    }

    // MARK: Commands from the daemon

    private func drainInbox() {
        guard !stopping else { return }
        let (commands, lent) = inbox.takeCommands()
        takeBack(lent)
        for command in commands {
            switch command {
            case let .show(id, card, alert): show(id: id, card: card, alert: alert)
            case let .close(id): close(id: id)
            case let .adopt(id, serverID): adopted[id] = Int32(bitPattern: serverID)
            case .hideAll: hideAll()
            case .showAll: showAll()
            case .whenSettled(let callback):
                settledWaiters.append(callback)
            case .stop:
                shutDown()
                return
            }
        }
        pump()
    }

    private func show(id: String, card: Card, alert: CardAlert?) {
        if cards[id] == nil { cardOrder.append(id) }
        var live = cards[id] ?? LiveCard(card: card, sourceSlot: freeSourceSlot(appName: card.appName))
        live.card = card
        if alert != nil { live.closedByUser = false }
        cards[id] = live
        if !live.closedByUser && !hidden {
            scheduler.submit(id: id, card: card, alert: alert)
        }
    }

    private func close(id: String) {
        scheduler.forget(id: id)
        // Forget first: a "closed" signal for it is then ours, not the user's.
        adopted[id] = nil
        cardOrder.removeAll { $0 == id }
        guard let live = cards.removeValue(forKey: id) else { return }
        closeOnServer(live.notification)
        if live.notification != nil { fillFreePlace() }
    }

    private func hideAll() {
        hidden = true
        scheduler.discardAll()
        for id in Array(cards.keys) {
            let notification = cards[id]?.notification
            cards[id]?.notification = nil
            closeOnServer(notification)
        }
    }

    private func showAll() {
        hidden = false
        resubmitLiveCards()
    }

    private func shutDown() {
        stopping = true
        cancelTimer()
        scheduler.discardAll()
        let notifications = cards.values.compactMap(\.notification)
        cards.removeAll()
        for notification in notifications { closeOnServer(notification) }
        if let loop { g_main_loop_quit(loop) }
    }

    func closeOnServer(_ notification: LibnotifyNotification?) {
        guard let notification, serverOwner != nil else { return }
        do {
            if profile.closesByExpiring { try notification.expireNow() }
            try notification.close()
        } catch {
            logWarning("closing a card failed: \(error)")
        }
    }

    private func resubmitLiveCards() {
        guard !hidden else { return }
        for (id, live) in cards.sorted(by: { $0.key < $1.key }) where !live.closedByUser {
            scheduler.submit(id: id, card: live.card, alert: nil)
        }
    }

    // MARK: Sending, rate-limited

    /// Sends every card whose slot is open, then arms one timer for the next slot.
    private func pump() {
        defer {
            reportIfSettled()
            lendSteadyCards()
        }
        cancelTimer()
        guard serverOwner != nil, !hidden, !stopping else { return }
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
        let answered = (routineReplies?.awaitedCount ?? 0) == 0
        guard !settledWaiters.isEmpty,
              scheduler.waitingIDs.isEmpty && answered || serverOwner == nil && serverReported else { return }
        let waiters = settledWaiters
        settledWaiters = []
        for waiter in waiters { waiter() }
    }

    private func timerFired() {
        if let timer { g_source_unref(timer) }
        timer = nil
        takeBack(inbox.closeLane())
        pump()
    }

    private func cancelTimer() {
        if let timer { MainContextHandle.cancel(timer) }
        timer = nil
    }

    /// The Notify request of a waiting card; a card the server has not shown yet is a first show.
    private func makeRequest(_ item: CardScheduler.Pending) -> NotificationRequest {
        let live = cards[item.id]
        let firstShow = live?.notification == nil && (live?.resumeServerID ?? adopted[item.id]) == nil
        let slot = profile.sourcePerCard ? live?.sourceSlot ?? 0 : 0
        return NotificationRequest.make(card: item.card, profile: profile, alert: item.alert, firstShow: firstShow,
                                        sourceSlot: slot)
    }

    /// The lowest source slot no live card of that app name holds (the first card of each app
    /// keeps its plain name).
    private func freeSourceSlot(appName: String) -> Int {
        let taken = Set(cards.values.filter { $0.card.appName == appName }.map(\.sourceSlot))
        return (0...).first { !taken.contains($0) } ?? 0
    }

    private func send(_ item: CardScheduler.Pending, request: NotificationRequest) {
        guard cards[item.id] != nil, makeRoom(for: item.id, alert: item.alert != nil), var live = cards[item.id] else { return }
        if profile.urgencyAppliesLate, item.alert != nil {
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
        let settles = profile.urgencyAppliesLate && request.urgency != .low
        if item.alert == nil, !settles, resume == nil, previousID > 0, !request.summary.isEmpty,
           RoutineReplace.isAvailable, let server = serverOwner, let connection = watch?.connection, let routineReplies {
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
        } else if let server = serverOwner, let connection = watch?.connection {
            RoutineReplace.close(serverID: serverID, at: server, on: connection)
        }
    }

    // MARK: Signals from the server

    /// The server's name got an owner. Handled one iteration later, so libnotify's proxy has
    /// seen the same NameOwnerChanged first.
    func serverAppeared(owner: String) {
        context.invoke { self.useServer(owner: owner) }
    }

    private func useServer(owner: String) {
        guard !stopping, owner != serverOwner else { return }
        takeBack(inbox.closeLane())
        serverOwner = owner
        dropNotifications()
        let info = ServerWatch.readServerInfo()
        profile = overrides.profile(for: info)
        scheduler.minimumIdenticalInterval = profile.minimumIdenticalInterval
        serverReported = true
        inbox.publish(serverInfo: info, profile: profile)
        inbox.callbacks.onServerChanged?(info)
        resubmitLiveCards()
        pump()
    }

    /// The server is gone: its ids mean nothing now; the cards wait for the next server.
    func serverVanished() {
        guard !stopping, serverOwner != nil || !serverReported else { return }
        takeBack(inbox.closeLane())
        serverOwner = nil
        serverReported = true
        cancelTimer()
        dropNotifications()
        inbox.publish(serverInfo: nil, profile: profile)
        inbox.callbacks.onServerChanged?(nil)
    }

    private func dropNotifications() {
        routineReplies?.forgetAwaited()
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
