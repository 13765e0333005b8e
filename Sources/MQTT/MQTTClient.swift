import CMosquitto
import Glibc
import ThreadSupport

/// One connection to an MQTT broker through libmosquitto, kept up by a thread of its own: it
/// connects (DNS and TCP may block, so never on the caller's thread), runs libmosquitto's
/// network loop, and reconnects with a doubling backoff when the broker goes away. Every
/// callback is turned into an `MQTTEvent` and handed to `onEvent` on that thread; callers
/// post it to their own loop. `subscribe`, `unsubscribe` and `publish` may be called from any
/// thread (libmosquitto is told it is threaded), and only queue packets: they never wait for
/// the network.
public final class MQTTClient: @unchecked Sendable {
    /// The libmosquitto handle. It lives as long as the process: the network thread keeps
    /// using it, so it is never destroyed under that thread.
    private let handle: OpaquePointer
    private let settings: MQTTSettings
    private let onEvent: @Sendable (MQTTEvent) -> Void
    /// Messages longer than this are reported without their bytes.
    public let maxPayloadBytes: Int
    private let lock = ThreadLock()
    private var stopRequested = false
    private var backoffSeconds = 1

    private static let libraryReady: Bool = { mosquitto_lib_init() == Int32(MOSQ_ERR_SUCCESS.rawValue) }()

    /// Creates the client (nothing is connected until `start`). Fails when libmosquitto
    /// cannot be set up or refuses the TLS files.
    public init(settings: MQTTSettings, maxPayloadBytes: Int, onEvent: @escaping @Sendable (MQTTEvent) -> Void) throws(MQTTError) {
        guard Self.libraryReady else { throw MQTTError(message: "libmosquitto could not be initialised") }
        self.settings = settings
        self.onEvent = onEvent
        self.maxPayloadBytes = maxPayloadBytes
        guard let handle = mosquitto_new(settings.clientID, !settings.persistentSession, nil) else {
            throw MQTTError(message: "mosquitto_new failed: errno \(errno)")
        }
        self.handle = handle
        mosquitto_threaded_set(handle, true)
        mosquitto_reconnect_delay_set(handle, 1, UInt32(max(1, settings.reconnectMaxSeconds)), true)
        mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1)
        if let username = settings.username {
            try check(mosquitto_username_pw_set(handle, username, settings.password), "username")
        }
        if settings.tls {
            let capath = settings.caFile == nil ? "/etc/ssl/certs" : nil
            try check(mosquitto_tls_set(handle, settings.caFile, capath, nil, nil, nil), "TLS setup")
        }
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        mosquitto_connect_with_flags_callback_set(handle, mqttConnected)
        mosquitto_disconnect_callback_set(handle, mqttDisconnected)
        mosquitto_subscribe_callback_set(handle, mqttSubscribed)
        mosquitto_message_callback_set(handle, mqttMessage)
        mosquitto_publish_callback_set(handle, mqttPublished)
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
        mosquitto_disconnect(handle)
    }

    /// Subscribes to `topics` at QoS 1 in one SUBSCRIBE; returns its message id (matched by
    /// `.subscribed`), or nil when there is no connection to queue it on.
    public func subscribe(_ topics: [String]) -> Int32? {
        guard !topics.isEmpty else { return nil }
        var messageID: Int32 = 0
        let rc = withCStrings(topics) { pointers in
            mosquitto_subscribe_multiple(handle, &messageID, Int32(topics.count), pointers, 1, 0, nil)
        }
        return rc == Int32(MOSQ_ERR_SUCCESS.rawValue) ? messageID : nil
    }

    /// Unsubscribes from `topics`; false when there is no connection (the broker then drops
    /// the subscription with the session, or at the next connection we do not renew it).
    @discardableResult
    public func unsubscribe(_ topics: [String]) -> Bool {
        guard !topics.isEmpty else { return true }
        let rc = withCStrings(topics) { pointers in
            mosquitto_unsubscribe_multiple(handle, nil, Int32(topics.count), pointers, nil)
        }
        return rc == Int32(MOSQ_ERR_SUCCESS.rawValue)
    }

    /// Publishes `payload` on `topic` at `qos` (not retained); returns the message id, or nil
    /// when it could not be queued. For the benchmark and tools; the daemon only subscribes.
    public func publish(topic: String, payload: [UInt8], qos: Int32 = 1) -> Int32? {
        var messageID: Int32 = 0
        let rc = payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle, &messageID, topic, Int32(bytes.count), bytes.baseAddress, qos, false)
        }
        return rc == Int32(MOSQ_ERR_SUCCESS.rawValue) ? messageID : nil
    }

    // MARK: The network thread

    /// Connects (retrying with backoff), then runs libmosquitto's loop, which reconnects by
    /// itself; a fatal error of that loop sends us back to connecting.
    private func runNetwork() {
        while !isStopped {
            let rc = mosquitto_connect(handle, settings.host, Int32(settings.port), Int32(settings.keepaliveSeconds))
            guard rc == Int32(MOSQ_ERR_SUCCESS.rawValue) else {
                onEvent(.connectionFailed(reason: Self.describe(rc)))
                waitBeforeRetry()
                continue
            }
            let loopResult = mosquitto_loop_forever(handle, -1, 1)
            if isStopped { break }
            onEvent(.disconnected(reason: Self.describe(loopResult)))
            waitBeforeRetry()
        }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopRequested
    }

    /// Sleeps the current backoff (in 100 ms steps, to notice `stop`), then doubles it.
    private func waitBeforeRetry() {
        lock.lock()
        let seconds = backoffSeconds
        backoffSeconds = min(backoffSeconds * 2, max(1, settings.reconnectMaxSeconds))
        lock.unlock()
        for _ in 0..<(seconds * 10) where !isStopped { usleep(100_000) }
    }

    // MARK: Callbacks (on the network thread)

    fileprivate func connected(code: Int32, flags: Int32) {
        guard code == 0 else {
            onEvent(.connectionFailed(reason: "the broker refused the connection: " + String(cString: mosquitto_connack_string(code))))
            return
        }
        lock.lock()
        backoffSeconds = 1
        lock.unlock()
        onEvent(.connected(sessionPresent: flags & 1 != 0))
    }

    fileprivate func disconnected(code: Int32) {
        guard code != 0 else { return }
        onEvent(.disconnected(reason: Self.describe(code)))
    }

    fileprivate func subscribed(messageID: Int32, count: Int32, granted: UnsafePointer<Int32>?) {
        let codes = granted.map { Array(UnsafeBufferPointer(start: $0, count: Int(max(0, count)))) } ?? []
        onEvent(.subscribed(messageID: messageID, grantedQoS: codes))
    }

    fileprivate func received(_ message: UnsafePointer<mosquitto_message>) {
        let topic = message.pointee.topic.map { String(cString: $0) } ?? ""
        let size = Int(max(0, message.pointee.payloadlen))
        var payload: [UInt8]?
        if size <= maxPayloadBytes {
            payload = message.pointee.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
        }
        onEvent(.message(topic: topic, payload: payload, payloadSize: size))
    }

    fileprivate func published(messageID: Int32) { onEvent(.published(messageID: messageID)) }

    // MARK: Helpers

    private func check(_ rc: Int32, _ what: String) throws(MQTTError) {
        guard rc == Int32(MOSQ_ERR_SUCCESS.rawValue) else { throw MQTTError(message: "\(what): \(Self.describe(rc))") }
    }

    /// libmosquitto's text for an error code; for a system error, the errno text.
    static func describe(_ rc: Int32) -> String {
        if rc == Int32(MOSQ_ERR_ERRNO.rawValue) { return String(cString: strerror(errno)) }
        return String(cString: mosquitto_strerror(rc))
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

// Trampolines: libmosquitto calls plain C functions with our object as userdata. They are
// nonisolated free functions, as C calls them on the network thread.

private func client(_ userdata: UnsafeMutableRawPointer?) -> MQTTClient? {
    userdata.map { Unmanaged<MQTTClient>.fromOpaque($0).takeUnretainedValue() }
}

private func mqttConnected(_: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ code: Int32, _ flags: Int32) {
    client(userdata)?.connected(code: code, flags: flags)
}

private func mqttDisconnected(_: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ code: Int32) {
    client(userdata)?.disconnected(code: code)
}

private func mqttSubscribed(_: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ messageID: Int32, _ count: Int32,
                            _ granted: UnsafePointer<Int32>?) {
    client(userdata)?.subscribed(messageID: messageID, count: count, granted: granted)
}

private func mqttMessage(_: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ message: UnsafePointer<mosquitto_message>?) {
    guard let message else { return }
    client(userdata)?.received(message)
}

private func mqttPublished(_: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ messageID: Int32) {
    client(userdata)?.published(messageID: messageID)
}
