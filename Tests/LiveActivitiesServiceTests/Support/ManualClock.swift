import Foundation
import LiveActivitiesService

/// A clock that moves only when a test says so: wake-ups the service asks for happen inside
/// `advance(to:)`, each at its own moment, in order. Alert holds, ticks and the minute rhythm
/// then take no real time, and "nothing happened before t" is a fact, not a guess after a sleep.
/// The service reads and arms it on its own thread; `advance` must run there too.
final class ManualClock: ServiceClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Double
    private var wakeups: [Int: (time: Double, handler: () -> Void)] = [:]
    private var nextID = 0
    private let offset: Double
    /// The sum of the steps made with `step(by:)`, which the monotonic clock does not see.
    private var stepped = 0.0

    init(now: Double, utcOffset: Double = 0) {
        current = now
        offset = utcOffset
    }

    var now: Double { lock.withLock { current } }

    /// The same moment, but for steps: in tests the monotonic clock moves with the manual one.
    var monotonicNow: Double { lock.withLock { current - stepped } }

    /// Steps the wall clock by `seconds` (either way), as NTP or the user would; the monotonic
    /// clock does not move. The caller then tells the service (`wallClockStepped`), as the loop would.
    func step(by seconds: Double) {
        lock.withLock {
            current += seconds
            stepped += seconds
        }
    }

    func utcOffset(at time: Double) -> Double {
        lock.withLock { readings += 1 }
        return offset
    }

    /// How many times the service asked for the zone offset: once per moment it renders at
    /// (a call, a round, a tick), so a test can count the moments a read cost.
    var zoneReadings: Int { lock.withLock { readings } }
    private var readings = 0

    @discardableResult
    func wake(at time: Double, _ handler: @escaping () -> Void) -> WakeupToken {
        lock.withLock {
            nextID += 1
            wakeups[nextID] = (time > current ? time : current + Self.firingDelay, handler)
            return WakeupToken(id: nextID)
        }
    }

    @discardableResult
    func wake(afterSeconds seconds: Double, _ handler: @escaping () -> Void) -> WakeupToken {
        wake(at: now + seconds, handler)
    }

    func cancel(_ token: WakeupToken) {
        _ = lock.withLock { wakeups.removeValue(forKey: token.id) }
    }

    /// The earliest wake-up armed, if any (when the service next wants to run by itself).
    var nextWakeup: Double? { lock.withLock { wakeups.values.map(\.time).min() } }

    /// Every wake-up armed, earliest first.
    var pendingWakeups: [Double] { lock.withLock { wakeups.values.map(\.time).sorted() } }

    /// Moves time forward to `time`, running every wake-up due on the way at its moment.
    func advance(to time: Double) {
        while let due = takeEarliest(notAfter: time) {
            lock.withLock { current = max(current, due.time) }
            due.handler()
        }
        lock.withLock { current = max(current, time) }
    }

    /// How long after now a wake-up asked for now (or earlier) runs: as with a timerfd, a
    /// moment later, so code that re-arms "at the next change" when it is due moves on.
    static let firingDelay = 0.001

    private func takeEarliest(notAfter time: Double) -> (time: Double, handler: () -> Void)? {
        lock.withLock {
            guard let (id, due) = wakeups.min(by: { ($0.value.time, $0.key) < ($1.value.time, $1.key) }),
                  due.time <= time else { return nil }
            wakeups[id] = nil
            return due
        }
    }
}
