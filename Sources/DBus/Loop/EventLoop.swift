import CDBus
import Glibc

/// Identifies a timer added with `EventLoop.addTimer`, to cancel it.
public struct TimerToken: Hashable, Sendable {
    let id: Int
}

/// Identifies a reader added with `EventLoop.addReader`, to remove it.
public struct ReaderToken: Hashable, Sendable {
    let id: Int
}

/// A single-threaded poll(2) loop for the daemon and the CLI: file descriptors, wall-clock
/// timers (one timerfd) and D-Bus connections, with no wake-ups while idle.
///
/// Everything runs on the thread that calls `run`; other threads reach the loop only
/// through `remote` (`post`, `stop`).
public final class EventLoop {
    /// A watched file descriptor and what to do when it is ready.
    struct Source {
        let fd: Int32
        var events: Int16
        let handler: (Int16) -> Void
    }

    /// The thread-safe entry point: `remote.post { … }`, `remote.stop()`.
    public let remote: EventLoopRemote
    /// How many times poll returned because something happened (a caller's own
    /// `run(until:timeout:)` deadline is not counted), for benchmarks and idle checks.
    public private(set) var wakeups = 0

    var sources: [Int: Source] = [:]
    var appTimers: [Int: AppTimer] = [:]
    var relativeTimeouts: [Int: RelativeTimeout] = [:]
    var timersChanged = false
    var armedDeadline: Int64?
    /// The wall clock app timers are measured on, in nanoseconds since the epoch: the system's,
    /// or a test's (then the timerfd is armed at the same distance from the system's).
    let wallClock: () -> Int64
    /// Called on the loop when the wall clock was stepped (settimeofday, NTP, the user), after
    /// the timers were re-armed for the new time; deadlines computed from the old time are stale.
    public var onWallClockStep: (() -> Void)?
    let timerDescriptor: Int32
    private var nextID = 1
    private var soon: [() -> Void] = []
    private var stopRequested = false

    /// Creates the loop's eventfd and timerfd. `wallClock` (unix seconds) replaces the system
    /// clock for app timers, for tests that step it (then call `wallClockStepped`).
    public init(wallClock: (() -> Double)? = nil) throws(DBusError) {
        if let wallClock {
            self.wallClock = { Clocks.nanoseconds(fromUnixTime: wallClock()) }
        } else {
            self.wallClock = { Clocks.realtimeNanoseconds }
        }
        let wake = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wake >= 0 else { throw .failed("eventfd failed: errno \(errno)") }
        let timer = timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard timer >= 0 else {
            close(wake)
            throw .failed("timerfd_create failed: errno \(errno)")
        }
        remote = EventLoopRemote(wakeDescriptor: wake)
        timerDescriptor = timer
    }

    deinit { close(timerDescriptor) }

    /// Runs `work` on the loop's thread soon (through the eventfd). The loop itself is not
    /// Sendable: code on other threads holds `remote` and calls `remote.post`.
    public func post(_ work: @escaping @Sendable () -> Void) {
        remote.post(work)
    }

    /// Runs until `stop()` (or `remote.stop()`).
    public func run() {
        stopRequested = false
        while !stopRequested { iterate(callerDeadline: nil) }
    }

    /// Makes `run()` return after the current callback. On the loop thread.
    public func stop() { stopRequested = true }

    /// Runs until `condition` holds or `seconds` pass; returns whether it held. For the CLI and tests.
    public func run(until condition: () -> Bool, timeout seconds: Double) -> Bool {
        let deadline = Clocks.monotonicNanoseconds + Clocks.nanoseconds(forInterval: seconds)
        while !condition() {
            guard Clocks.monotonicNanoseconds < deadline else { return false }
            iterate(callerDeadline: deadline)
        }
        return true
    }

    /// Calls `handler` whenever `fd` is readable (or hung up); the caller keeps owning `fd`.
    public func addReader(fd: Int32, _ handler: @escaping () -> Void) -> ReaderToken {
        ReaderToken(id: addSource(fd: fd, events: Int16(POLLIN)) { _ in handler() })
    }

    /// Stops watching a reader's descriptor.
    public func removeReader(_ token: ReaderToken) { removeSource(token.id) }

    // MARK: Internal building blocks (D-Bus watches and timeouts use these)

    /// Runs `work` on this thread once the work at hand is done and before the loop next
    /// sleeps: for code on the loop's thread, a `post` without the eventfd (no system call, no
    /// extra poll). Only call it on the loop's thread.
    public func runSoon(_ work: @escaping () -> Void) { soon.append(work) }

    /// Watches `fd` for `events` (POLLIN/POLLOUT; 0 = disabled); returns the source id.
    func addSource(fd: Int32, events: Int16, _ handler: @escaping (Int16) -> Void) -> Int {
        let id = makeID()
        sources[id] = Source(fd: fd, events: events, handler: handler)
        return id
    }

    func setSourceEvents(_ id: Int, _ events: Int16) { sources[id]?.events = events }

    func removeSource(_ id: Int) { sources[id] = nil }

    func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// One round: either the deferred work (so callers re-check their condition right after
    /// it), or one poll and every ready handler.
    private func iterate(callerDeadline: Int64?) {
        guard soon.isEmpty else {
            runSoonWork()
            return
        }
        rearmTimerIfNeeded()
        let (timeout, timeoutIsCallers) = pollTimeout(callerDeadline: callerDeadline)
        let activeSources = sources.filter { $0.value.events != 0 }.map { ($0.key, $0.value) }
        var descriptors = [pollfd(fd: remote.wakeDescriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: timerDescriptor, events: Int16(POLLIN), revents: 0)]
        descriptors += activeSources.map { pollfd(fd: $0.1.fd, events: $0.1.events, revents: 0) }
        let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
        guard ready >= 0 else { return }
        if ready > 0 || !timeoutIsCallers { wakeups += 1 }
        if descriptors[0].revents != 0 { runPosted() }
        if descriptors[1].revents != 0 { fireDueTimers() }
        for (index, (id, _)) in activeSources.enumerated() {
            let revents = descriptors[index + 2].revents
            guard revents != 0, let source = sources[id] else { continue }
            if revents & Int16(POLLNVAL) != 0 { sources[id]?.events = 0 }
            source.handler(revents)
        }
        fireDueTimeouts()
    }

    /// The poll timeout in ms (-1 = forever) and whether it is the caller's own deadline.
    private func pollTimeout(callerDeadline: Int64?) -> (Int32, Bool) {
        let timeoutDeadline = relativeTimeouts.values.map(\.deadline).min()
        let deadlines = [timeoutDeadline, callerDeadline].compactMap { $0 }
        guard let earliest = deadlines.min() else { return (-1, false) }
        let remaining = max(0, earliest - Clocks.monotonicNanoseconds)
        let milliseconds = Int32(min((remaining + 999_999) / 1_000_000, Int64(Int32.max)))
        return (milliseconds, timeoutDeadline.map { $0 > earliest } ?? true)
    }

    private func runSoonWork() {
        while !soon.isEmpty {
            let work = soon
            soon = []
            for item in work { item() }
        }
    }

    /// Runs one batch of posted work: at most `postedBatchLimit` items, and none started after
    /// `postedBatchNanoseconds` (on a busy machine a batch is cut short, not stretched). When
    /// more is queued, the eventfd is set again, so the next poll returns at once with the
    /// bus's descriptors in it: a call's reply waits behind at most one batch, however many
    /// push messages are queued (issue 18).
    private func runPosted() {
        remote.drainWakeups()
        let started = Clocks.monotonicNanoseconds
        var more = false
        for _ in 0..<Self.postedBatchLimit {
            let (work, stop, left) = remote.takeNext()
            work?()
            more = left
            if stop {
                stopRequested = true
                break
            }
            guard more, Clocks.monotonicNanoseconds - started < Self.postedBatchNanoseconds else { break }
        }
        if more { remote.wake() }
    }

    /// How many posted items run before the loop polls its descriptors again.
    static let postedBatchLimit = 8
    /// How long a batch of posted items may go on before the loop polls again (2 ms).
    static let postedBatchNanoseconds: Int64 = 2_000_000
}
