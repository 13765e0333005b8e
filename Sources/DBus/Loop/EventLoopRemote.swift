import CDBus
import Glibc
import ThreadSupport

/// The one part of an `EventLoop` other threads may touch: hand it work, or ask it to stop.
///
/// Work is queued under a lock and the loop is woken through its eventfd; everything runs
/// on the loop's thread, in the order it was posted. The loop takes the queue in bounded
/// batches (`takeBatch`), so a flood of posted work (push messages) never keeps it from the bus.
public final class EventLoopRemote: @unchecked Sendable {
    private let lock = ThreadLock()
    /// Posted work not yet taken: `pending[taken...]` (the front is cut off in bulk, not item by item).
    private var pending: [@Sendable () -> Void] = []
    private var taken = 0
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

    /// Takes at most `limit` items of posted work, oldest first; `more` says whether some are
    /// left. The stop request is handed over (and reset) only with the last of the work, so
    /// everything posted before `stop()` still runs. Called on the loop thread.
    func takeBatch(limit: Int) -> (work: [@Sendable () -> Void], stop: Bool, more: Bool) {
        lock.lock()
        defer { lock.unlock() }
        let end = min(pending.count, taken + max(1, limit))
        let batch = Array(pending[taken..<end])
        taken = end
        let more = taken < pending.count
        if !more {
            pending = []
            taken = 0
        } else if taken > 4096 && taken * 2 > pending.count {
            pending.removeFirst(taken)
            taken = 0
        }
        let stop = !more && stopRequested
        if stop { stopRequested = false }
        return (batch, stop, more)
    }

    /// Adds 1 to the eventfd counter (a full counter already means "wake up").
    func wake() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Resets the eventfd counter after a wake-up.
    func drainWakeups() {
        var counter: UInt64 = 0
        _ = read(wakeDescriptor, &counter, MemoryLayout<UInt64>.size)
    }
}
