import CMosquitto
import Glibc
import ThreadSupport

/// One connection to an MQTT broker (or to one node of a cluster, failing over to the next)
/// through libmosquitto, kept up by a thread of its own: it connects (DNS and TCP may block, so
/// never on the caller's thread), runs libmosquitto's network loop, and reconnects with a
/// doubling backoff when every broker went away. Every
/// callback is turned into an `MQTTEvent` and handed to `onEvent` on that thread; callers
/// post it to their own loop. `subscribe`, `unsubscribe` and `publish` may be called from any
/// thread (libmosquitto is told it is threaded), and only queue packets: they never wait for
/// the network.
public final class MQTTClient: @unchecked Sendable {
    let library: MosquittoLibrary
    /// The libmosquitto handle. It lives as long as the process: the network thread keeps
    /// using it, so it is never destroyed under that thread.
    private let handle: OpaquePointer
    private let settings: MQTTSettings
    let onEvent: @Sendable (MQTTEvent) -> Void
    /// Messages longer than this are reported without their bytes.
    public let maxPayloadBytes: Int
    private let lock = ThreadLock()
    private var stopRequested = false
    private var backoffSeconds = 1
    /// Attempts that failed since the last accepted connection (each broker is tried once before a backoff).
    private var failedAttempts = 0
    /// The backoff between attempts is slept on this, so `stop()` ends it at once and nothing wakes in between.
    private let backoff = ThreadSleeper()
    /// When the network thread must wake for the keepalive (under `lock`: packets are logged on
    /// the threads that publish too).
    private var keepalive: KeepaliveSchedule

    /// Creates the client (nothing is connected until `start`). Fails when libmosquitto
    /// cannot be loaded or set up, or refuses the login or TLS settings.
    public init(settings: MQTTSettings, maxPayloadBytes: Int, onEvent: @escaping @Sendable (MQTTEvent) -> Void) throws(MQTTError) {
        library = try MosquittoLibrary.shared.get()
        self.settings = settings
        self.onEvent = onEvent
        self.maxPayloadBytes = maxPayloadBytes
        keepalive = KeepaliveSchedule(keepaliveSeconds: settings.keepaliveSeconds)
        guard let handle = library.new(settings.clientID, !settings.persistentSession, nil) else {
            throw MQTTError(message: "mosquitto_new failed: errno \(errno)")
        }
        self.handle = handle
        _ = library.threadedSet(handle, true)
        _ = library.intOption(handle, MOSQ_OPT_TCP_NODELAY, 1)
        if let username = settings.username {
            try check(library.usernamePasswordSet(handle, username, settings.password), "username")
        }
        if settings.tls {
            let capath = settings.caFile == nil ? "/etc/ssl/certs" : nil
            try check(library.tlsSet(handle, settings.caFile, capath, nil, nil, nil), "TLS setup")
        }
        library.userDataSet(handle, Unmanaged.passUnretained(self).toOpaque())
        MQTTCallbacks.install(on: handle, library)
    }

    /// Starts the network thread; returns false when no thread could be made. The client is
    /// retained by that thread from now on.
    @discardableResult
    public func start() -> Bool {
        DetachedThread.start { [self] in self.runNetwork() }
    }

    /// Disconnects and lets the network thread end (the daemon calls it on the way out).
    public func stop() {
        lock.lock()
        stopRequested = true
        lock.unlock()
        backoff.wake()
        _ = library.disconnect(handle)
    }

    /// Subscribes to `topics` at QoS 1 in one SUBSCRIBE; returns its message id (matched by
    /// `.subscribed`), or nil when there is no connection to queue it on.
    public func subscribe(_ topics: [String]) -> Int32? {
        guard !topics.isEmpty else { return nil }
        var messageID: Int32 = 0
        let rc = withCStrings(topics) { pointers in
            library.subscribeMultiple(handle, &messageID, Int32(topics.count), pointers, 1, 0, nil)
        }
        return rc == Int32(MOSQ_ERR_SUCCESS.rawValue) ? messageID : nil
    }

    /// Unsubscribes from `topics`; false when there is no connection (the next connection
    /// does not renew them).
    @discardableResult
    public func unsubscribe(_ topics: [String]) -> Bool {
        guard !topics.isEmpty else { return true }
        let rc = withCStrings(topics) { pointers in
            library.unsubscribeMultiple(handle, nil, Int32(topics.count), pointers, nil)
        }
        return rc == Int32(MOSQ_ERR_SUCCESS.rawValue)
    }

    /// Publishes `payload` on `topic` at `qos` (not retained); returns the message id, or nil
    /// when it could not be queued. For the benchmark and tools; the daemon only subscribes.
    public func publish(topic: String, payload: [UInt8], qos: Int32 = 1) -> Int32? {
        var messageID: Int32 = 0
        let rc = payload.withUnsafeBytes { bytes in
            library.publish(handle, &messageID, topic, Int32(bytes.count), bytes.baseAddress, qos, false)
        }
        return rc == Int32(MOSQ_ERR_SUCCESS.rawValue) ? messageID : nil
    }

    // MARK: The network thread

    /// How long one `mosquitto_loop` may wait for the socket: until the keepalive's PINGREQ is
    /// due (`KeepaliveSchedule`), so a connected, idle client wakes twice per keepalive, for the
    /// PINGREQ and its PINGRESP. -1 meant libmosquitto's 1 s and woke the idle daemon once a
    /// second, and a third of the keepalive three times more often than needed (issue 29). A
    /// message, or a publish from another thread, wakes it at once (the socket, or
    /// libmosquitto's own socket pair).
    private var loopTimeoutMilliseconds: Int32 {
        lock.lock()
        defer { lock.unlock() }
        return keepalive.waitMilliseconds(atMonotonicNanoseconds: Self.keepaliveClockNanoseconds())
    }

    /// The network thread's name.
    public static let threadName = "mqtt"

    /// Names the calling thread (its `comm`, through /proc/thread-self: Glibc's
    /// `pthread_setname_np` is not imported into Swift).
    private static func nameThisThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = name.withCString { write(descriptor, $0, strlen($0)) }
        close(descriptor)
    }

    /// A line of libmosquitto's log (see `MQTTCallbacks`), at libmosquitto's own clock.
    func heard(_ line: String) {
        let second = Self.keepaliveClockNanoseconds() / 1_000_000_000
        lock.lock()
        keepalive.heard(line, at: second)
        lock.unlock()
    }

    /// The clock libmosquitto counts its keepalive on (`mosquitto_time`: CLOCK_BOOTTIME where
    /// there is one, else CLOCK_MONOTONIC), in nanoseconds, so both see the same whole seconds.
    private static func keepaliveClockNanoseconds() -> Int64 {
        var now = timespec()
        if clock_gettime(CLOCK_BOOTTIME, &now) != 0 { clock_gettime(CLOCK_MONOTONIC, &now) }
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Connects to one broker after the other until one answers, then runs libmosquitto's
    /// loop until the connection is lost, and goes on with the next broker (a cluster's other
    /// node) under the same client id, so the session and its queued messages are found there.
    /// A whole round of brokers without an accepted connection waits the backoff first; with
    /// one broker that is every failure, as before.
    private func runNetwork() {
        // Named, so its wake-ups can be read apart in /proc/PID/task/*/ (tests, benchmarks, top -H).
        Self.nameThisThread(Self.threadName)
        let addresses = settings.addresses
        var index = 0
        while !isStopped {
            let address = addresses[index]
            index = (index + 1) % addresses.count
            onEvent(.attempting(broker: address))
            lock.lock()
            keepalive.reset()
            lock.unlock()
            let rc = library.connect(handle, address.host, Int32(address.port), Int32(settings.keepaliveSeconds))
            if rc == Int32(MOSQ_ERR_SUCCESS.rawValue) {
                var loopResult = rc
                while !isStopped, loopResult == Int32(MOSQ_ERR_SUCCESS.rawValue) {
                    loopResult = library.loop(handle, loopTimeoutMilliseconds, 1)
                    // A signal that cut the wait short is not a lost connection.
                    if loopResult == Int32(MOSQ_ERR_ERRNO.rawValue), errno == EINTR {
                        loopResult = Int32(MOSQ_ERR_SUCCESS.rawValue)
                    }
                }
                if isStopped { break }
                onEvent(.disconnected(reason: library.describe(loopResult)))
            } else {
                onEvent(.connectionFailed(reason: "\(address): \(library.describe(rc))"))
            }
            if noteFailedAttempt(of: addresses.count) { waitBeforeRetry() }
        }
    }

    /// Counts an attempt that ended without (or lost) a connection; true when every broker has
    /// now failed once since the last accepted connection, so the backoff is due.
    private func noteFailedAttempt(of brokerCount: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        failedAttempts += 1
        return failedAttempts % brokerCount == 0
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopRequested
    }

    /// Sleeps the current backoff in one wait (cut short by `stop`), then doubles it.
    private func waitBeforeRetry() {
        lock.lock()
        let seconds = backoffSeconds
        backoffSeconds = min(backoffSeconds * 2, max(1, settings.reconnectMaxSeconds))
        lock.unlock()
        backoff.sleep(seconds: Double(seconds))
    }

    /// A connection was accepted: the next failure tries the next broker at once, and waits 1 s again after a round.
    func resetBackoff() {
        lock.lock()
        backoffSeconds = 1
        failedAttempts = 0
        lock.unlock()
    }

    private func check(_ rc: Int32, _ what: String) throws(MQTTError) {
        guard rc == Int32(MOSQ_ERR_SUCCESS.rawValue) else { throw MQTTError(message: "\(what): \(library.describe(rc))") }
    }
}

/// Why the client could not be set up, for the daemon's log and `PushStatus`.
public struct MQTTError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// Runs `body` with `strings` as a C array of C strings; MOSQ_ERR_INVAL when there are none.
private func withCStrings(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Int32) -> Int32 {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return Int32(MOSQ_ERR_INVAL.rawValue) }
        return body(UnsafePointer(base))
    }
}
