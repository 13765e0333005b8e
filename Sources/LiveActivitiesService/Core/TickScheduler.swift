/// The one timer that serves every activity: armed at the earliest deadline the model names,
/// re-armed only when that deadline moves, and disarmed when nothing is live.
final class TickScheduler {
    private let clock: ServiceClock
    private var token: WakeupToken?
    private var deadline: Double?

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
}
