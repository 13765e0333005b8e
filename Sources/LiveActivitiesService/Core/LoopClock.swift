import ActivityModel
import DBus
import ServiceSupport

/// The daemon's clock: the system's wall clock and zone, and the event loop's one timerfd.
public final class LoopClock: ServiceClock {
    private let loop: EventLoop
    private let wallClock: () -> Double
    private var timers: [Int: TimerToken] = [:]
    private var nextID = 0
    /// When the zone was last read again (monotonic seconds).
    private var zoneReadAt = -Double.infinity

    /// `wallClock`: the wall clock the loop's timers follow (a test may step it).
    public init(loop: EventLoop, wallClock: @escaping () -> Double = LocalTime.now) {
        self.loop = loop
        self.wallClock = wallClock
    }

    public var now: Double { wallClock() }

    /// The zone is read again (a stat of /etc/localtime) at most once per second of the
    /// monotonic clock: a zone change is seen within a second, and a flood of calls does
    /// not pay a system call each.
    public func utcOffset(at time: Double) -> Double {
        let monotonic = LocalTime.monotonic()
        let reread = monotonic - zoneReadAt >= 1
        if reread { zoneReadAt = monotonic }
        return SystemTimeZone.utcOffset(at: time, rereadingZone: reread)
    }

    @discardableResult
    public func wake(at time: Double, _ handler: @escaping () -> Void) -> WakeupToken {
        arm(handler) { fire in loop.addTimer(at: time, fire) }
    }

    public var monotonicNow: Double { LocalTime.monotonic() }

    public var bootNow: Double { LocalTime.boottime() }

    @discardableResult
    public func wake(afterSeconds seconds: Double, _ handler: @escaping () -> Void) -> WakeupToken {
        arm(handler) { fire in loop.addTimer(afterSeconds: seconds, fire) }
    }

    /// Adds the loop's timer (`add`) that runs `handler` once, and keeps it until it fired or
    /// is cancelled.
    private func arm(_ handler: @escaping () -> Void, _ add: (@escaping () -> Void) -> TimerToken) -> WakeupToken {
        nextID += 1
        let id = nextID
        timers[id] = add { [weak self] in
            self?.timers[id] = nil
            handler()
        }
        return WakeupToken(id: id)
    }

    public func cancel(_ token: WakeupToken) {
        guard let timer = timers.removeValue(forKey: token.id) else { return }
        loop.cancelTimer(timer)
    }
}
