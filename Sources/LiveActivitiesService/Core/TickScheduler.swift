/// The service's time: the one timer that serves every activity (armed at the earliest
/// deadline the model names, re-armed only when that deadline moves, and disarmed when nothing
/// is live) and the wall clock's offset from the boot-time clock, which a wall-clock step is
/// measured against (its deadline is stale then); and the queue and pace of publishing rounds
/// (`RoundQueue`), the other thing the loop runs later; and the renders in other styles that
/// serve from tick to tick until they can change (`StyledRenders`).
final class TickScheduler {
    /// The events waiting for the next publishing round, and the rounds' pace.
    var rounds = RoundQueue()
    /// Renders for a server without seconds and the MPRIS player, kept until they can change.
    let styledRenders = StyledRenders()
    private let clock: ServiceClock
    private var token: WakeupToken?
    private var deadline: Double?
    /// The wall clock minus the boot-time clock when last read (nil: not yet).
    private var wallClockOffset: Double?

    init(clock: ServiceClock) { self.clock = clock }

    func schedule(at newDeadline: Double?, _ fire: @escaping () -> Void) {
        if newDeadline == deadline && token != nil { return }
        if let token { clock.cancel(token) }
        token = nil
        deadline = newDeadline
        guard let newDeadline else { return }
        token = clock.wake(at: newDeadline) { [weak self] in
            self?.token = nil
            self?.deadline = nil
            fire()
        }
    }

    /// Disarms the timer (its deadline is stale, e.g. after a wall-clock step).
    func cancel() {
        if let token { clock.cancel(token) }
        token = nil
        deadline = nil
    }

    /// Reads the wall clock's offset from the boot-time clock at `now` (the wall clock's), to
    /// measure later steps against.
    func anchorWallClock(now: Double) {
        wallClockOffset = now - clock.bootNow
    }

    /// How far the wall clock moved against the boot-time clock (which never steps and counts
    /// suspend) since it was last read, as of `now`; nil when it was not read before or moved
    /// under a second (noise of the two readings, not a step). The offset is read again.
    func wallClockStep(now: Double) -> Double? {
        let offset = now - clock.bootNow
        defer { wallClockOffset = offset }
        guard let last = wallClockOffset else { return nil }
        let step = offset - last
        return abs(step) >= 1 ? step : nil
    }
}
