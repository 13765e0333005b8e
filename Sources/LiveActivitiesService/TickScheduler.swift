import DBus

/// The one timer that serves every activity: armed at the earliest deadline the model names,
/// re-armed only when that deadline moves, and disarmed when nothing is live.
final class TickScheduler {
    private let loop: EventLoop
    private var token: TimerToken?
    private var deadline: Double?

    init(loop: EventLoop) { self.loop = loop }

    func schedule(at newDeadline: Double?, _ fire: @escaping () -> Void) {
        if newDeadline == deadline && token != nil { return }
        if let token { loop.cancelTimer(token) }
        token = nil
        deadline = newDeadline
        guard let newDeadline else { return }
        token = loop.addTimer(at: newDeadline) { [weak self] in
            self?.token = nil
            self?.deadline = nil
            fire()
        }
    }

    /// Disarms the timer (its deadline is stale, e.g. after a wall-clock step).
    func cancel() {
        if let token { loop.cancelTimer(token) }
        token = nil
        deadline = nil
    }
}
