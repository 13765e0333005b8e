import ActivityFiles
import DBus

/// Where the daemon learns that the user walked away and came back: the desktop's idle
/// monitor (`MutterIdleSource` on GNOME, `ScreenSaverIdleSource` on KDE and others). Watches
/// are set only while a session that pauses when idle is running (or waits for the user),
/// and dropped otherwise, so an idle daemon asks nothing of the desktop.
protocol IdleSource: AnyObject {
    var choice: IdleSourceChoice { get }
    /// Calls `onIdle` with the seconds the user has been idle, once that reaches `threshold`.
    func watchForIdle(threshold: Double, onIdle: @escaping (Double) -> Void)
    /// Calls `onActive` once, when the user is active again.
    func watchForReturn(onActive: @escaping () -> Void)
    /// Drops every watch.
    func stopWatching()
}

/// Picks the idle source the session bus offers now (nil: none, so sessions are not paused).
enum IdleSources {
    static func available(on connection: DBusConnection, clock: ServiceClock) -> (any IdleSource)? {
        if (try? connection.nameHasOwner(IdleSourceChoice.mutter.rawValue)) == true {
            return MutterIdleSource(connection: connection)
        }
        if (try? connection.nameHasOwner(IdleSourceChoice.screenSaver.rawValue)) == true {
            return ScreenSaverIdleSource(connection: connection, clock: clock)
        }
        return nil
    }

    /// Calls `changed` when either idle monitor's name changes owner (a desktop starting after
    /// the daemon, a shell restart); returns the handler's token.
    static func watchOwners(on connection: DBusConnection, changed: @escaping () -> Void) -> DBusConnection.HandlerToken {
        let names = [IdleSourceChoice.mutter.rawValue, IdleSourceChoice.screenSaver.rawValue]
        for name in names {
            try? connection.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                                     + "member='NameOwnerChanged',arg0='\(name)'")
        }
        return connection.addMessageHandler { message in
            guard message.kind == .signal, message.member == "NameOwnerChanged", message.interface == "org.freedesktop.DBus",
                  let name = (try? message.arguments())?.first?.string, names.contains(name) else { return false }
            changed()
            return false
        }
    }
}

/// GNOME's `org.gnome.Mutter.IdleMonitor` (`/org/gnome/Mutter/IdleMonitor/Core`): an idle
/// watch (`AddIdleWatch`, fires when the idle time reaches the interval) and a user-active
/// watch (`AddUserActiveWatch`, fires once on the next input), both as `WatchFired(u)`. No polling.
final class MutterIdleSource: IdleSource {
    let choice = IdleSourceChoice.mutter
    static let path = "/org/gnome/Mutter/IdleMonitor/Core"
    private let connection: DBusConnection
    private var handler: DBusConnection.HandlerToken?
    /// Watch ids the monitor gave, with what to do when each fires.
    private var watches: [UInt32: () -> Void] = [:]
    /// Bumped on every stop, so a reply to an AddWatch sent before it is dropped.
    private var generation = 0

    init(connection: DBusConnection) {
        self.connection = connection
        try? connection.addMatch("type='signal',interface='\(IdleSourceChoice.mutter.rawValue)',member='WatchFired'")
        handler = connection.addMessageHandler { [weak self] message in
            guard let self, message.kind == .signal, message.member == "WatchFired",
                  message.interface == IdleSourceChoice.mutter.rawValue,
                  let id = (try? message.arguments())?.first?.integer else { return false }
            self.fired(UInt32(truncatingIfNeeded: id))
            return false
        }
    }

    deinit {
        if let handler { connection.removeMessageHandler(handler) }
    }

    func watchForIdle(threshold: Double, onIdle: @escaping (Double) -> Void) {
        add("AddIdleWatch", [.uint64(UInt64(max(1, threshold * 1000)))]) { onIdle(threshold) }
    }

    func watchForReturn(onActive: @escaping () -> Void) {
        add("AddUserActiveWatch", []) { [weak self] in
            onActive()
            self?.stopWatching()
        }
    }

    func stopWatching() {
        generation += 1
        for id in watches.keys {
            connection.callMethodAsync(destination: choice.rawValue, path: Self.path, interface: choice.rawValue,
                                       member: "RemoveWatch", arguments: [.uint32(id)]) { _ in }
        }
        watches = [:]
    }

    private func add(_ member: String, _ arguments: [DBusValue], then action: @escaping () -> Void) {
        let asked = generation
        connection.callMethodAsync(destination: choice.rawValue, path: Self.path, interface: choice.rawValue,
                                   member: member, arguments: arguments, timeoutMilliseconds: 5_000) { [weak self] result in
            guard let self, case .success(let values) = result, let id = values.first?.integer else {
                Log.warning("\(IdleSourceChoice.mutter.rawValue) \(member) failed; idle sessions are not paused")
                return
            }
            let watch = UInt32(truncatingIfNeeded: id)
            guard asked == self.generation else {
                self.connection.callMethodAsync(destination: self.choice.rawValue, path: Self.path,
                                                interface: self.choice.rawValue, member: "RemoveWatch",
                                                arguments: [.uint32(watch)]) { _ in }
                return
            }
            self.watches[watch] = action
        }
    }

    private func fired(_ id: UInt32) {
        guard let action = watches[id] else { return }
        action()
    }
}

/// `org.freedesktop.ScreenSaver.GetSessionIdleTime` (seconds, as the freedesktop interface
/// says), which has no idle event: polled, and only while a watch is set. Watching for idle
/// asks once, then again when the threshold could first be reached (threshold minus the idle
/// time read), so an active user costs one call per threshold (3 min by default); watching for
/// the return asks every `returnPollInterval` seconds while a paused session waits.
final class ScreenSaverIdleSource: IdleSource {
    let choice = IdleSourceChoice.screenSaver
    static let path = "/org/freedesktop/ScreenSaver"
    static let returnPollInterval = 5.0
    private let connection: DBusConnection
    private let clock: ServiceClock
    private var wakeup: WakeupToken?
    private var generation = 0

    init(connection: DBusConnection, clock: ServiceClock) {
        self.connection = connection
        self.clock = clock
    }

    func watchForIdle(threshold: Double, onIdle: @escaping (Double) -> Void) {
        stopWatching()
        askIdle(generation) { [weak self] idle in
            guard let self else { return }
            if idle >= threshold { onIdle(idle); return }
            self.again(after: max(1, threshold - idle)) { self.watchForIdle(threshold: threshold, onIdle: onIdle) }
        }
    }

    func watchForReturn(onActive: @escaping () -> Void) {
        stopWatching()
        askIdle(generation) { [weak self] idle in
            guard let self else { return }
            if idle < Self.returnPollInterval { onActive(); return }
            self.again(after: Self.returnPollInterval) { self.watchForReturn(onActive: onActive) }
        }
    }

    func stopWatching() {
        generation += 1
        if let wakeup { clock.cancel(wakeup) }
        wakeup = nil
    }

    private func again(after seconds: Double, _ work: @escaping () -> Void) {
        let asked = generation
        wakeup = clock.wake(afterSeconds: seconds) { [weak self] in
            guard let self, asked == self.generation else { return }
            work()
        }
    }

    private func askIdle(_ asked: Int, then use: @escaping (Double) -> Void) {
        connection.callMethodAsync(destination: choice.rawValue, path: Self.path, interface: choice.rawValue,
                                   member: "GetSessionIdleTime", timeoutMilliseconds: 5_000) { [weak self] result in
            guard let self, asked == self.generation else { return }
            guard case .success(let values) = result, let seconds = values.first?.integer else {
                Log.warning("\(self.choice.rawValue) GetSessionIdleTime failed; idle sessions are not paused")
                return
            }
            use(Double(seconds))
        }
    }
}
