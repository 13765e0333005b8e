import Glibc

/// A plain pthread mutex with `lock()`/`unlock()`, so the daemon needs no Foundation (whose
/// `NSLock` would pull Foundation and ICU into the daemon's memory). The mutex lives on the
/// heap because a pthread mutex must not move.
public final class ThreadLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }
}
