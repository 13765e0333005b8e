import Dispatch
import ThreadSupport

/// Shows the daemon's cards as desktop notifications without ever blocking the daemon:
/// every notification-server interaction that can block runs on a thread of its own (a
/// GMainLoop), and the public methods only enqueue under a lock and wake that thread; a
/// routine replace of a card the server shows goes straight out from the caller's thread
/// (`RoutineLane`), without waiting for the answer.
///
/// libnotify keeps process-wide state: run one started presenter per process at a time.
public final class CardPresenter: @unchecked Sendable {
    private let inbox = PresenterInbox()
    private let appName: String
    private let minimumInterval: Double
    private let profileOverrides: ProfileOverrides
    private let lock = ThreadLock()
    private var engine: NotificationEngine?
    private var started = false
    private let finished = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - appName: the name libnotify registers (notify_init); each card also carries its own.
    ///   - minimumInterval: at most one Notify per activity per this many seconds.
    ///   - profileOverrides: user corrections to the detected server profile.
    public init(appName: String, minimumInterval: Double = 1.0, profileOverrides: ProfileOverrides = .none) {
        self.appName = appName
        self.minimumInterval = minimumInterval
        self.profileOverrides = profileOverrides
    }

    deinit { stop(timeout: 1) }

    /// Spawns the notification thread. Libnotify reads DBUS_SESSION_BUS_ADDRESS there, so set
    /// the environment before. Cards shown before `start` go out once it runs. A presenter
    /// starts once: after `stop`, make a new one.
    public func start() {
        lock.lock(); defer { lock.unlock() }
        guard !started, let context = MainContextHandle() else { return }
        started = true
        let engine = NotificationEngine(context: context, inbox: inbox, appName: appName,
                                        minimumInterval: minimumInterval, overrides: profileOverrides)
        self.engine = engine
        let finished = self.finished
        let running = DetachedThread.start {
            engine.run()
            finished.signal()
        }
        if !running {
            logWarning("cannot start the notification thread: no cards will be shown")
            self.engine = nil
        }
    }

    /// Shows or updates the card of activity `id` (replaced in place). Never blocks: coalesced
    /// to one Notify per `minimumInterval`, latest card winning; an alert is never lost.
    /// `alert` nil is a routine update: silent, no new popup, not shown if the user closed it.
    public func show(id: String, card: Card, alert: CardAlert? = nil) {
        if alert == nil {
            inbox.showRoutine(id: id, card: card)
        } else {
            inbox.post(.show(id: id, card: card, alert: alert))
        }
    }

    /// Closes the card of `id` and forgets it. Never blocks; not reported as closed by the user.
    public func close(id: String) {
        inbox.post(.close(id: id))
    }

    /// Takes back the card a previous run of the daemon showed for `id` (its notification id,
    /// as reported by `onNotificationID`): the next show replaces it instead of adding another.
    public func adopt(id: String, notificationID: UInt32) {
        inbox.post(.adopt(id: id, serverID: notificationID))
    }

    /// Closes every card but remembers them (e.g. `Enabled` switched off).
    public func hideAll() {
        inbox.post(.hideAll)
    }

    /// Shows every remembered card again, except those the user closed.
    public func showAll() {
        inbox.post(.showAll)
    }

    /// Calls `callback` (on the notification thread) once every request made so far is done:
    /// each card handed over went to the server, was coalesced into a later one, or was
    /// dropped (closed, hidden, closed by the user). With no server, once it is known there is
    /// none. Lets a caller (a test) know the moment has passed instead of sleeping.
    public func whenSettled(_ callback: @escaping @Sendable () -> Void) {
        inbox.post(.whenSettled(callback))
    }

    /// Called on the notification thread when a card button is pressed: (activity id, button key).
    public var onAction: (@Sendable (_ id: String, _ actionKey: String) -> Void)? {
        get { inbox.callbacks.onAction }
        set { inbox.callbacks.onAction = newValue }
    }

    /// Called on the notification thread when the user dismissed a card.
    public var onClosedByUser: (@Sendable (_ id: String) -> Void)? {
        get { inbox.callbacks.onClosedByUser }
        set { inbox.callbacks.onClosedByUser = newValue }
    }

    /// Called on the notification thread when a server appears or changes (its info), or
    /// when there is none (nil).
    public var onServerChanged: (@Sendable (ServerInfo?) -> Void)? {
        get { inbox.callbacks.onServerChanged }
        set { inbox.callbacks.onServerChanged = newValue }
    }

    /// Called on the notification thread when the server gives a card a new notification id,
    /// so the daemon can save it and take the card back after a restart (`adopt`).
    public var onNotificationID: (@Sendable (_ id: String, _ notificationID: UInt32) -> Void)? {
        get { inbox.callbacks.onNotificationID }
        set { inbox.callbacks.onNotificationID = newValue }
    }

    /// The server in use, or nil when there is none (a snapshot, safe from any thread).
    public var serverInfo: ServerInfo? { inbox.serverInfo }

    /// The rendering profile in use (detected + overrides), safe from any thread.
    public var profile: ServerProfile { inbox.profile }

    /// Closes every card and ends the notification thread; waits at most `timeout` seconds
    /// (a hung server may hold the thread longer). Returns whether the thread ended in time.
    @discardableResult
    public func stop(timeout: Double = 5) -> Bool {
        lock.lock()
        let running = engine
        engine = nil
        lock.unlock()
        guard running != nil else { return true }
        inbox.post(.stop)
        return finished.wait(timeout: .now() + timeout) == .success
    }
}
