import ActivityFiles
import DBus

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
