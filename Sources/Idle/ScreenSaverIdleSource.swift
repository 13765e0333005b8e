import ActivityFiles
import DBus
import ServiceSupport

/// `org.freedesktop.ScreenSaver.GetSessionIdleTime`, which has no idle event: polled, and only
/// while a watch is set. Watching for idle asks once, then again when the threshold could first
/// be reached (threshold minus the idle time read), so an active user costs one call per
/// threshold (3 min by default); watching for the return asks every `returnPollInterval`
/// seconds while a paused session waits.
///
/// The answer's unit depends on who answers (`IdleTimeUnit`): kscreenlocker (KDE) answers
/// milliseconds, the others seconds. kscreenlocker owns `org.kde.screensaver` on the same
/// connection (`interface.cpp`, v6.3.6 lines 34 and 36), which is how it is told apart. A
/// reading that is not one is retried (`IdleRetry`); NotSupported (kscreenlocker under Wayland)
/// makes the source give up (`onUnusable`), so the next one serves.
package final class ScreenSaverIdleSource: IdleSource {
    static let busName = IdleSourceChoice.screenSaver.rawValue
    static let kdeName = "org.kde.screensaver"
    static let path = "/org/freedesktop/ScreenSaver"
    static let returnPollInterval = 5.0
    package let kind = IdleSourceKind.screenSaver
    let unit: IdleTimeUnit
    package var onUnusable: (() -> Void)?
    private let connection: DBusConnection
    private let clock: ServiceClock
    private let tuning: IdleTuning
    private var retry: IdleRetry
    private var wakeup: WakeupToken?
    private var generation = 0

    init(connection: DBusConnection, clock: ServiceClock, tuning: IdleTuning, unit: IdleTimeUnit) {
        self.connection = connection
        self.clock = clock
        self.tuning = tuning
        self.unit = unit
        retry = IdleRetry(first: tuning.retryAfter, longest: tuning.longestRetry)
    }

    /// The ScreenSaver on the bus now, with its unit; nil when nobody owns the name.
    static func onBus(_ connection: DBusConnection, clock: ServiceClock, tuning: IdleTuning) -> ScreenSaverIdleSource? {
        guard let owner = connection.owner(of: busName) else { return nil }
        let unit: IdleTimeUnit = connection.owner(of: kdeName) == owner ? .milliseconds : .seconds
        return ScreenSaverIdleSource(connection: connection, clock: clock, tuning: tuning, unit: unit)
    }

    package var name: String {
        unit == .milliseconds ? "\(Self.busName) (kscreenlocker, milliseconds)" : "\(Self.busName) (seconds)"
    }

    package func watchForIdle(threshold: Double, onIdle: @escaping (Double) -> Void) {
        stopWatching()
        askIdle(generation, again: { [weak self] in self?.watchForIdle(threshold: threshold, onIdle: onIdle) }) { [weak self] idle in
            guard let self else { return }
            if idle >= threshold { onIdle(idle); return }
            self.again(after: max(1, threshold - idle)) { self.watchForIdle(threshold: threshold, onIdle: onIdle) }
        }
    }

    package func watchForReturn(onActive: @escaping () -> Void) {
        stopWatching()
        askIdle(generation, again: { [weak self] in self?.watchForReturn(onActive: onActive) }) { [weak self] idle in
            guard let self else { return }
            if idle < Self.returnPollInterval { onActive(); return }
            self.again(after: Self.returnPollInterval) { self.watchForReturn(onActive: onActive) }
        }
    }

    package func stopWatching() {
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

    /// Asks once; a good reading goes to `use`, a failed one runs `again` after the back-off.
    private func askIdle(_ asked: Int, again: @escaping () -> Void, then use: @escaping (Double) -> Void) {
        connection.callMethodAsync(destination: Self.busName, path: Self.path, interface: Self.busName,
                                   member: "GetSessionIdleTime",
                                   timeoutMilliseconds: Int32(tuning.callTimeout * 1000)) { [weak self] result in
            guard let self, asked == self.generation else { return }
            switch IdleReading(result, unit: self.unit) {
            case .idle(let seconds):
                if self.retry.succeeded() { Log.info("idle: \(self.name) answers again") }
                use(seconds)
            case .unsupported:
                Log.warning("idle: \(self.name) cannot tell idleness in this session (NotSupported); trying another source")
                self.onUnusable?()
            case .failed(let why):
                let (wait, log) = self.retry.failed()
                if log { Log.warning("idle: \(self.name) GetSessionIdleTime failed (\(why)); asking again in \(Int(wait)) s") }
                self.again(after: wait, again)
            }
        }
    }
}
