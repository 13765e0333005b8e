import Glibc

/// A sleep another thread can cut short: `sleep(seconds:)` waits on a pthread condition
/// variable (on the monotonic clock) until the time is up or `wake()` is called, with no
/// wake-up in between. The MQTT thread waits its reconnect backoff on one, so an offline
/// laptop is idle between attempts and `stop()` still ends the wait at once.
public final class ThreadSleeper: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var woken = false

    public init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        mutex.deinitialize(count: 1)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Sleeps up to `seconds`; returns false at once, and from then on, once `wake()` was called.
    @discardableResult
    public func sleep(seconds: Double) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let whole = Int(max(0, min(seconds, 86_400)))
        let fraction = Int((max(0, min(seconds, 86_400)) - Double(whole)) * 1_000_000_000)
        deadline.tv_sec += whole
        deadline.tv_nsec += fraction
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !woken {
            // pthread_cond_timedwait(3): returns ETIMEDOUT at the deadline; spurious returns loop.
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
        }
        return !woken
    }

    /// Ends the current sleep and every later one at once. Safe from any thread.
    public func wake() {
        pthread_mutex_lock(mutex)
        woken = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}
