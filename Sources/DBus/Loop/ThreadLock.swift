import Glibc

/// A plain pthread mutex with `lock()`/`unlock()`, so this module needs no Foundation (whose
/// `NSLock` would pull Foundation and ICU into the daemon's memory). The mutex lives on the
/// heap because a pthread mutex must not move.
final class ThreadLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }
}
