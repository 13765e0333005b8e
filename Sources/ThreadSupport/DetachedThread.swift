import Glibc

/// Starts a thread that runs one closure to its end, on pthreads directly, so the daemon
/// needs no Foundation (`Foundation.Thread` would pull Foundation and ICU into the daemon's
/// memory). The thread keeps the process's name, as it did under `Foundation.Thread`, whose
/// longer name Linux refused.
public enum DetachedThread {
    /// Runs `body` on a new detached thread; returns false when no thread could be created.
    @discardableResult
    public static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { box in
            guard let box else { return nil }
            Unmanaged<ThreadBody>.fromOpaque(box).takeRetainedValue().body()
            return nil
        }, box) == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(box).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}

/// What a new thread runs, handed to it through pthread's one pointer argument.
private final class ThreadBody {
    let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
