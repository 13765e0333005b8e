import CDBus
import Glibc

/// A one-shot wall-clock deadline of the app.
struct AppTimer {
    let deadline: Int64
    let handler: () -> Void
}

/// A monotonic interval: repeating for libdbus timeouts (until removed), or once for
/// `addTimer(afterSeconds:)`.
struct RelativeTimeout {
    var deadline: Int64
    let interval: Int64
    var repeats = true
    let handler: () -> Void
}

/// Wall-clock timers on one timerfd (`CLOCK_REALTIME`, `TFD_TIMER_ABSTIME`), armed to the
/// earliest deadline, so a deadline passed during suspend or after a clock change fires at once.
/// `TFD_TIMER_CANCEL_ON_SET` wakes the loop when the clock is stepped either way: timers are
/// re-armed for the new time and `onWallClockStep` lets the app recompute its deadlines.
extension EventLoop {
    /// Calls `handler` once at `unixTime` (seconds since the epoch); a past time fires on the next iteration.
    @discardableResult
    public func addTimer(at unixTime: Double, _ handler: @escaping () -> Void) -> TimerToken {
        let id = makeID()
        appTimers[id] = AppTimer(deadline: Clocks.nanoseconds(fromUnixTime: unixTime), handler: handler)
        timersChanged = true
        return TimerToken(id: id)
    }

    /// Calls `handler` once after `seconds` on the monotonic clock, which wall-clock steps do
    /// not move: for intervals (throttling, batching) rather than moments.
    @discardableResult
    public func addTimer(afterSeconds seconds: Double, _ handler: @escaping () -> Void) -> TimerToken {
        let id = makeID()
        let interval = Clocks.nanoseconds(forInterval: seconds)
        relativeTimeouts[id] = RelativeTimeout(deadline: Clocks.monotonicNanoseconds + interval, interval: interval,
                                               repeats: false, handler: handler)
        return TimerToken(id: id)
    }

    /// Cancels a timer that has not fired yet; harmless otherwise.
    public func cancelTimer(_ token: TimerToken) {
        if appTimers.removeValue(forKey: token.id) != nil { timersChanged = true }
        if relativeTimeouts[token.id]?.repeats == false { relativeTimeouts[token.id] = nil }
    }

    /// Points the timerfd at the earliest app deadline, or disarms it.
    func rearmTimerIfNeeded() {
        guard timersChanged else { return }
        timersChanged = false
        let earliest = appTimers.values.map(\.deadline).min()
        guard earliest != armedDeadline else { return }
        armedDeadline = earliest
        var setting = itimerspec()
        if let earliest {
            // The same distance from the system clock as from the loop's wall clock (they differ in tests).
            let systemDeadline = earliest &- (wallClock() &- Clocks.realtimeNanoseconds)
            setting.it_value = Clocks.timespec(nanoseconds: max(1, systemDeadline))
        }
        timerfd_settime(timerDescriptor, Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET), &setting, nil)
    }

    /// The wall clock was stepped: re-arm for the new time, let the app recompute its
    /// deadlines (`onWallClockStep`), then fire what is due now. Called by the loop when the
    /// timerfd reports ECANCELED; tests with their own wall clock call it after stepping it.
    public func wallClockStepped() {
        armedDeadline = nil
        timersChanged = true
        onWallClockStep?()
        fireTimers(dueAt: wallClock())
    }

    /// Fires every app timer whose deadline has passed, earliest (then oldest) first.
    func fireDueTimers() {
        var expirations: UInt64 = 0
        let count = read(timerDescriptor, &expirations, MemoryLayout<UInt64>.size)
        if count < 0 && errno == ECANCELED {
            wallClockStepped()
            return
        }
        armedDeadline = nil
        timersChanged = true
        fireTimers(dueAt: wallClock())
    }

    private func fireTimers(dueAt now: Int64) {
        let due = appTimers.filter { $0.value.deadline <= now }
            .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
        for (id, _) in due {
            guard let timer = appTimers.removeValue(forKey: id) else { continue }
            timer.handler()
        }
    }

    /// Adds a repeating monotonic timeout of `milliseconds`; returns its id.
    func addTimeout(milliseconds: Int32, _ handler: @escaping () -> Void) -> Int {
        let id = makeID()
        let interval = Int64(max(0, milliseconds)) * 1_000_000
        relativeTimeouts[id] = RelativeTimeout(deadline: Clocks.monotonicNanoseconds + interval,
                                               interval: interval, repeats: true, handler: handler)
        return id
    }

    func removeTimeout(_ id: Int) { relativeTimeouts[id] = nil }

    /// Fires due monotonic timeouts and schedules their next round.
    func fireDueTimeouts() {
        let now = Clocks.monotonicNanoseconds
        let due = relativeTimeouts.filter { $0.value.deadline <= now }.sorted { $0.value.deadline < $1.value.deadline }
        for (id, _) in due {
            guard let timeout = relativeTimeouts[id] else { continue }
            if timeout.repeats {
                relativeTimeouts[id]?.deadline = now + max(timeout.interval, 1_000_000)
            } else {
                relativeTimeouts[id] = nil
            }
            timeout.handler()
        }
    }
}
