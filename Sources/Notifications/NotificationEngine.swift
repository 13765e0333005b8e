import CNotify

/// The card state machine of the notification thread: it owns every libnotify object,
/// the server watch and the rate-limit timer, and it is the only code that may block on the
/// server. Every member runs on that thread (inside its GMainLoop); other threads reach it
/// only through `PresenterInbox`. While it has nothing to do, it lends the routine replaces
/// of steady cards to the daemon's thread (`RoutineLane`, `+Lane`), and takes them back first
/// thing whenever it wakes. This file holds its state and the daemon's commands; sending is
/// `+Sending`, the server's signals `+Server`, places and source slots `+Capacity`.
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
    let overrides: ProfileOverrides
    var scheduler: CardScheduler
    var cards: [String: LiveCard] = [:]
    /// Activity ids in the order their cards first came, for servers that show few at a time.
    var cardOrder: [String] = []
    /// Notification ids a previous run of the daemon used, taken back on each card's first show.
    var adopted: [String: Int32] = [:]
    private var loop: OpaquePointer?
    /// The server the cards go to: its watch, its routine answers, its owner and profile.
    var link = ServerLink()
    var timer: UnsafeMutablePointer<GSource>?
    private(set) var hidden = false
    private(set) var stopping = false
    /// Callbacks waiting for the moment no card waits for its slot.
    var settledWaiters: [@Sendable () -> Void] = []

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
        VariantTypeInfoCache.hold()
        loop = g_main_loop_new(context.pointer, la_g_false)
        do {
            let watch = try ServerWatch(engine: self)
            link.watch = watch
            link.replies = RoutineReplyFilter(connection: watch.connection, context: context, inbox: inbox)
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
        link.replies?.remove()
        link.replies = nil
        link.watch?.cancel()
        flushContext()
        link.watch = nil
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

    func drainInbox() {
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
        guard let notification, link.owner != nil else { return }
        do {
            if link.profile.closesByExpiring { try notification.expireNow() }
            try notification.close()
        } catch {
            logWarning("closing a card failed: \(error)")
        }
    }

    func resubmitLiveCards() {
        guard !hidden else { return }
        for (id, live) in cards.sorted(by: { $0.key < $1.key }) where !live.closedByUser {
            scheduler.submit(id: id, card: live.card, alert: nil)
        }
    }
}
