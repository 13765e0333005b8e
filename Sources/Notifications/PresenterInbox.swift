import ThreadSupport

/// The only state the daemon's thread and the notification thread share, behind one lock:
/// commands waiting for the notification thread, the routine lane (`RoutineLane`), the
/// callbacks, and snapshots of the server. Posting never blocks on the server: it appends under
/// the lock and wakes the thread, or sends a routine replace through the lane.
final class PresenterInbox: @unchecked Sendable {
    /// What the daemon asked for, in order.
    enum Command {
        case show(id: String, card: Card, alert: CardAlert?)
        case close(id: String)
        case adopt(id: String, serverID: UInt32)
        case hideAll
        case showAll
        /// Call back once nothing waits for its slot (see `CardPresenter.whenSettled`).
        case whenSettled(@Sendable () -> Void)
        case stop
    }

    /// The callbacks the presenter reports through (called on the notification thread).
    struct Callbacks {
        var onAction: (@Sendable (_ id: String, _ actionKey: String) -> Void)?
        var onClosedByUser: (@Sendable (_ id: String) -> Void)?
        var onServerChanged: (@Sendable (ServerInfo?) -> Void)?
        var onNotificationID: (@Sendable (_ id: String, _ serverID: UInt32) -> Void)?
    }

    private let lock = ThreadLock()
    private var commands: [Command] = []
    private var waker: (@Sendable () -> Void)?
    private var wakeScheduled = false
    private var stopped = false
    private var storedCallbacks = Callbacks()
    private var storedServerInfo: ServerInfo?
    private var storedProfile = ServerProfile.fallback
    private var lane = RoutineLane()

    /// Queues `command` and wakes the notification thread once per batch.
    func post(_ command: Command) {
        lock.lock()
        guard !stopped else { lock.unlock(); return }
        let wake = appendLocked(command)
        lock.unlock()
        wake?()
    }

    /// A routine update (no alert) of the card of `id`: sent at once through the lane when it is
    /// open for that card and nothing is queued before it (so the order of commands holds),
    /// else queued for the notification thread as `post` does.
    func showRoutine(id: String, card: Card) {
        lock.lock()
        guard !stopped else { lock.unlock(); return }
        if commands.isEmpty, lane.isOpen, lane.send(id: id, card: card, now: monotonicSeconds()) {
            lock.unlock()
            return
        }
        let wake = appendLocked(.show(id: id, card: card, alert: nil))
        lock.unlock()
        wake?()
    }

    /// Under the lock: appends `command`; returns the waker to call once the lock is released.
    private func appendLocked(_ command: Command) -> (@Sendable () -> Void)? {
        commands.append(command)
        if case .stop = command { stopped = true }
        let wake = wakeScheduled ? nil : waker
        if wake != nil { wakeScheduled = true }
        return wake
    }

    /// Takes every queued command and, in the same moment, the lane back (so nothing goes
    /// through the lane after a command it would overtake); the next post wakes the thread again.
    func takeCommands() -> (commands: [Command], lane: RoutineLane.Handover) {
        lock.lock(); defer { lock.unlock() }
        wakeScheduled = false
        let taken = commands
        commands.removeAll()
        return (taken, lane.close())
    }

    /// Takes the lane back (the card thread acts on the cards), with what went through it.
    func closeLane() -> RoutineLane.Handover {
        lock.lock(); defer { lock.unlock() }
        return lane.close()
    }

    /// Opens the lane for `entries` (the card thread has nothing to do for them).
    func openLane(_ route: RoutineLane.Route, entries: [String: RoutineLane.Entry], identitySentAt: [String: Double]) {
        lock.lock(); defer { lock.unlock() }
        guard !stopped else { return }
        lane.open(route, entries: entries, identitySentAt: identitySentAt)
    }

    /// On GDBus's worker thread: the plain answer to a replace sent through the lane. False
    /// when the lane was taken back meanwhile (the answer then goes to the card thread).
    func laneAnswered(id: String, notification: LibnotifyNotification) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return lane.answered(id: id, notification: notification)
    }

    /// Installs (or removes, with nil) how to wake the notification thread; wakes it at once
    /// when commands are already waiting.
    func setWaker(_ newWaker: (@Sendable () -> Void)?) {
        lock.lock()
        waker = newWaker
        let wake = (newWaker != nil && !commands.isEmpty && !wakeScheduled) ? newWaker : nil
        wakeScheduled = wake != nil
        lock.unlock()
        wake?()
    }

    var callbacks: Callbacks {
        get { lock.lock(); defer { lock.unlock() }; return storedCallbacks }
        set { lock.lock(); storedCallbacks = newValue; lock.unlock() }
    }

    var serverInfo: ServerInfo? {
        lock.lock(); defer { lock.unlock() }
        return storedServerInfo
    }

    var profile: ServerProfile {
        lock.lock(); defer { lock.unlock() }
        return storedProfile
    }

    /// Publishes what the notification thread learnt about the server.
    func publish(serverInfo: ServerInfo?, profile: ServerProfile) {
        lock.lock()
        storedServerInfo = serverInfo
        storedProfile = profile
        lock.unlock()
    }
}
