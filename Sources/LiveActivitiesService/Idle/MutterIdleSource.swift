import ActivityFiles
import DBus

/// GNOME's `org.gnome.Mutter.IdleMonitor` (`/org/gnome/Mutter/IdleMonitor/Core`): an idle
/// watch (`AddIdleWatch`, fires when the idle time reaches the interval) and a user-active
/// watch (`AddUserActiveWatch`, fires once on the next input), both as `WatchFired(u)`. No polling.
final class MutterIdleSource: IdleSource {
    let choice = IdleSourceChoice.mutter
    static let path = "/org/gnome/Mutter/IdleMonitor/Core"
    private let connection: DBusConnection
    private var handler: DBusConnection.HandlerToken?
    /// Watch ids the monitor gave, with what to do when each fires and whether it fires once
    /// (a user-active watch, which Mutter then drops by itself).
    private var watches: [UInt32: (oneShot: Bool, action: () -> Void)] = [:]
    /// Bumped on every stop, so a reply to an AddWatch sent before it is dropped.
    private var generation = 0

    /// The bus match this source added (removed again when it goes, so a monitor that comes and
    /// goes many times does not pile matches up on the bus).
    private static let watchFiredRule = "type='signal',interface='\(IdleSourceChoice.mutter.rawValue)',member='WatchFired'"
    private var matchAdded = false

    init(connection: DBusConnection) {
        self.connection = connection
        do {
            try connection.addMatch(Self.watchFiredRule)
            matchAdded = true
        } catch {
            Log.warning("idle: cannot watch Mutter's WatchFired signal: \(error)")
        }
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
        if matchAdded { connection.removeMatch(Self.watchFiredRule) }
    }

    func watchForIdle(threshold: Double, onIdle: @escaping (Double) -> Void) {
        add("AddIdleWatch", [.uint64(UInt64(max(1, threshold * 1000)))], oneShot: false) { onIdle(threshold) }
    }

    func watchForReturn(onActive: @escaping () -> Void) {
        add("AddUserActiveWatch", [], oneShot: true, then: onActive)
    }

    func stopWatching() {
        generation += 1
        for id in watches.keys {
            connection.callMethodAsync(destination: choice.rawValue, path: Self.path, interface: choice.rawValue,
                                       member: "RemoveWatch", arguments: [.uint32(id)]) { _ in }
        }
        watches = [:]
    }

    private func add(_ member: String, _ arguments: [DBusValue], oneShot: Bool, then action: @escaping () -> Void) {
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
