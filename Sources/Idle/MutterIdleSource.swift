import ActivityFiles
import DBus
import ServiceSupport

/// GNOME's `org.gnome.Mutter.IdleMonitor` (`/org/gnome/Mutter/IdleMonitor/Core`): an idle
/// watch (`AddIdleWatch`, fires when the idle time reaches the interval) and a user-active
/// watch (`AddUserActiveWatch`, fires once on the next input), both as `WatchFired(u)`. No polling.
///
/// Mutter sends `WatchFired` to the watch's owner alone, but any connection on the bus can send
/// a signal of that name too: only one from the connection that owns the monitor's name (its
/// unique name, read when the source is made; a new owner makes a new source) counts. A watch
/// the monitor refused (or did not answer for) is asked for again with back-off (`IdleRetry`).
package final class MutterIdleSource: IdleSource {
    static let busName = IdleSourceChoice.mutter.rawValue
    static let path = "/org/gnome/Mutter/IdleMonitor/Core"
    package let kind = IdleSourceKind.mutter
    package let name = "Mutter IdleMonitor"
    package var onUnusable: (() -> Void)?
    private let connection: DBusConnection
    /// The unique name of the monitor's connection, the only sender whose WatchFired counts.
    let owner: String
    private var handler: DBusConnection.HandlerToken?
    /// Watch ids the monitor gave, with what to do when each fires and whether it fires once
    /// (a user-active watch, which Mutter then drops by itself).
    private var watches: [UInt32: (oneShot: Bool, action: () -> Void)] = [:]
    /// Bumped on every stop, so a reply to an AddWatch sent before it is dropped.
    private var generation = 0
    private let clock: ServiceClock
    private let tuning: IdleTuning
    private var retry: IdleRetry
    private var retryWakeup: WakeupToken?

    /// The bus match this source added (removed again when it goes, so a monitor that comes and
    /// goes many times does not pile matches up on the bus).
    private let watchFiredRule: String
    private var matchAdded = false

    /// Nil when nobody owns the monitor's name.
    init?(connection: DBusConnection, clock: ServiceClock, tuning: IdleTuning = IdleTuning()) {
        guard let owner = connection.owner(of: Self.busName) else { return nil }
        self.connection = connection
        self.clock = clock
        self.tuning = tuning
        retry = IdleRetry(first: tuning.retryAfter, longest: tuning.longestRetry)
        self.owner = owner
        watchFiredRule = "type='signal',sender='\(owner)',path='\(Self.path)',interface='\(Self.busName)',member='WatchFired'"
        do {
            try connection.addMatch(watchFiredRule)
            matchAdded = true
        } catch {
            Log.warning("idle: cannot watch Mutter's WatchFired signal: \(error)")
        }
        handler = connection.addMessageHandler { [weak self] message in
            guard let self, message.kind == .signal, message.member == "WatchFired",
                  message.interface == Self.busName, message.sender == self.owner, message.path == Self.path,
                  let id = (try? message.arguments())?.first?.integer else { return false }
            self.fired(UInt32(truncatingIfNeeded: id))
            return false
        }
    }

    deinit {
        if let handler { connection.removeMessageHandler(handler) }
        if matchAdded { connection.removeMatch(watchFiredRule) }
    }

    package func watchForIdle(threshold: Double, onIdle: @escaping (Double) -> Void) {
        add("AddIdleWatch", [.uint64(UInt64(max(1, threshold * 1000)))], oneShot: false) { onIdle(threshold) }
    }

    package func watchForReturn(onActive: @escaping () -> Void) {
        add("AddUserActiveWatch", [], oneShot: true, then: onActive)
    }

    package func stopWatching() {
        generation += 1
        if let retryWakeup { clock.cancel(retryWakeup) }
        retryWakeup = nil
        for id in watches.keys {
            connection.callMethodAsync(destination: owner, path: Self.path, interface: Self.busName,
                                       member: "RemoveWatch", arguments: [.uint32(id)]) { _ in }
        }
        watches = [:]
    }

    private func add(_ member: String, _ arguments: [DBusValue], oneShot: Bool, then action: @escaping () -> Void) {
        let asked = generation
        connection.callMethodAsync(destination: owner, path: Self.path, interface: Self.busName, member: member,
                                   arguments: arguments, timeoutMilliseconds: Int32(tuning.callTimeout * 1000)) { [weak self] result in
            guard let self else { return }
            guard case .success(let values) = result, let id = values.first?.integer else {
                guard asked == self.generation else { return }
                let (wait, log) = self.retry.failed()
                if log { Log.warning("idle: \(Self.busName) \(member) failed (\(result)); asking again in \(Int(wait)) s") }
                self.retryWakeup = self.clock.wake(afterSeconds: wait) { [weak self] in
                    guard let self, asked == self.generation else { return }
                    self.add(member, arguments, oneShot: oneShot, then: action)
                }
                return
            }
            if self.retry.succeeded() { Log.info("idle: \(Self.busName) answers again") }
            let watch = UInt32(truncatingIfNeeded: id)
            guard asked == self.generation else {
                self.connection.callMethodAsync(destination: self.owner, path: Self.path,
                                                interface: Self.busName, member: "RemoveWatch",
                                                arguments: [.uint32(watch)]) { _ in }
                return
            }
            self.watches[watch] = (oneShot, action)
        }
    }

    /// Runs a watch's action; a one-shot watch is forgotten first, so the action may set new
    /// watches (or stop them all) without this one coming back.
    private func fired(_ id: UInt32) {
        guard let watch = watches[id] else { return }
        if watch.oneShot { watches[id] = nil }
        watch.action()
    }
}
