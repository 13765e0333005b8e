import ThreadSupport

/// The only state the daemon's thread and the notification thread share, behind one lock:
/// commands waiting for the notification thread, the callbacks, and snapshots of the server.
/// Posting never blocks on the server: it appends under the lock and wakes the thread.
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

    /// Queues `command` and wakes the notification thread once per batch.
    func post(_ command: Command) {
        lock.lock()
        guard !stopped else { lock.unlock(); return }
        commands.append(command)
        if case .stop = command { stopped = true }
        let wake = wakeScheduled ? nil : waker
        if wake != nil { wakeScheduled = true }
        lock.unlock()
        wake?()
    }

    /// Takes every queued command; the next post wakes the thread again.
    func takeCommands() -> [Command] {
        lock.lock(); defer { lock.unlock() }
        wakeScheduled = false
        let taken = commands
        commands.removeAll()
        return taken
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
