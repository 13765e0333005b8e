import CDBus
import Glibc
import ThreadSupport

/// The one part of an `EventLoop` other threads may touch: hand it work, or ask it to stop.
///
/// Work is queued under a lock and the loop is woken through its eventfd; everything runs
/// on the loop's thread, in the order it was posted. The loop takes the queue one item at a
/// time in bounded batches (`takeNext`), so a flood of posted work (push messages) never keeps
/// it from the bus, and never keeps it from stopping either.
public final class EventLoopRemote: @unchecked Sendable {
    private let lock = ThreadLock()
    /// Posted work not yet taken: `pending[taken...]` (the front is cut off in bulk, not item by item).
    private var pending: [@Sendable () -> Void] = []
    private var taken = 0
    /// Items ever posted and ever taken (they never go down, unlike `pending`'s indices).
    private var postedTotal = 0
    private var takenTotal = 0
    /// `postedTotal` when `stop()` was called: the loop stops once it has taken that much, so
    /// work posted before the stop still runs and work posted after it cannot put it off.
    private var stopAfter: Int?
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
        postedTotal += 1
        lock.unlock()
        wake()
    }

    /// Makes the loop's `run()` return after the current iteration. Safe from any thread.
    public func stop() {
        lock.lock()
        if stopAfter == nil { stopAfter = postedTotal }
        lock.unlock()
        wake()
    }

    /// Takes the oldest posted item, if any; `more` says whether others are left, `stop` whether
    /// the loop should stop after running it (everything posted before `stop()` was taken).
    /// Called on the loop thread.
    func takeNext() -> (work: (@Sendable () -> Void)?, stop: Bool, more: Bool) {
        lock.lock()
        defer { lock.unlock() }
        var work: (@Sendable () -> Void)?
        if taken < pending.count {
            work = pending[taken]
            taken += 1
            takenTotal += 1
        }
        let more = taken < pending.count
        if !more {
            pending = []
            taken = 0
        } else if taken > 4096 && taken * 2 > pending.count {
            pending.removeFirst(taken)
            taken = 0
        }
        var stop = false
        if let stopAfter, takenTotal >= stopAfter {
            stop = true
            self.stopAfter = nil
        }
        return (work, stop, more)
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
