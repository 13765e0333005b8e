import ActivityModel
import DBus

/// Identifies a wake-up asked of a `ServiceClock`, to cancel it.
public struct WakeupToken: Hashable, Sendable {
    public let id: Int
    public init(id: Int) { self.id = id }
}

/// Time as the service sees it: the wall clock, the local UTC offset at a moment, and a
/// wake-up at a wall-clock moment. The daemon runs on `LoopClock`; tests pass a clock that
/// moves only when told, so alert holds, ticks and minute rhythms take no real time. The
/// service reads `now` wherever a step needs the moment: one call or tick may read it more
/// than once (a change, then the round that publishes it), each step once (`transact`, a
/// `RoundView` for every read of a round).
public protocol ServiceClock: AnyObject {
    /// Unix seconds.
    var now: Double { get }
    /// Seconds on a clock that never steps, for throttling (only differences mean anything).
    var monotonicNow: Double { get }
    /// Seconds on a clock that never steps but counts suspend (CLOCK_BOOTTIME): `now` minus
    /// it changes only when the wall clock is stepped, by the size of the step.
    var bootNow: Double { get }
    /// Seconds east of UTC of local time at `time`.
    func utcOffset(at time: Double) -> Double
    /// Calls `handler` once at `time` (at once when it has passed), on the service's thread.
    @discardableResult
    func wake(at time: Double, _ handler: @escaping () -> Void) -> WakeupToken
    /// Calls `handler` once after `seconds` have passed, whatever the wall clock does meanwhile.
    @discardableResult
    func wake(afterSeconds seconds: Double, _ handler: @escaping () -> Void) -> WakeupToken
    /// Cancels a wake-up that has not happened; harmless otherwise.
    func cancel(_ token: WakeupToken)
}

extension ServiceClock {
    /// Without a boot-time clock of its own, the monotonic one (a test clock without suspends).
    public var bootNow: Double { monotonicNow }
}

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
