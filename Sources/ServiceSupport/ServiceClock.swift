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
