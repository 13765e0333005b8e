import CDBus
import Glibc
import ThreadSupport

/// The one part of an `EventLoop` other threads may touch: hand it work, or ask it to stop.
///
/// Work is queued under a lock and the loop is woken through its eventfd; everything runs
/// on the loop's thread, in the order it was posted.
public final class EventLoopRemote: @unchecked Sendable {
    private let lock = ThreadLock()
    private var pending: [@Sendable () -> Void] = []
    private var stopRequested = false
    /// The eventfd the loop polls; owned (and closed) by this object.
    let wakeDescriptor: Int32

    init(wakeDescriptor: Int32) {
        self.wakeDescriptor = wakeDescriptor
    }

    deinit { close(wakeDescriptor) }

    /// Runs `work` on the loop's thread soon. Safe from any thread.
    public func post(_ work: @escaping @Sendable () -> Void) {
        lock.lock()
        pending.append(work)
        lock.unlock()
        wake()
    }

    /// Makes the loop's `run()` return after the current iteration. Safe from any thread.
    public func stop() {
        lock.lock()
        stopRequested = true
        lock.unlock()
        wake()
    }

    /// Takes all posted work and the stop request, resetting both; called on the loop thread.
    func takePending() -> (work: [@Sendable () -> Void], stop: Bool) {
        lock.lock()
        defer { lock.unlock() }
        let taken = (pending, stopRequested)
        pending = []
        stopRequested = false
        return taken
    }

    /// Adds 1 to the eventfd counter (a full counter already means "wake up").
    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Resets the eventfd counter after a wake-up.
    func drainWakeups() {
        var counter: UInt64 = 0
        _ = read(wakeDescriptor, &counter, MemoryLayout<UInt64>.size)
    }
}
