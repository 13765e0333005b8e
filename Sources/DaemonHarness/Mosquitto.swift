import Foundation

/// A real mosquitto broker for push tests and the benchmark: listens on a free port of
/// 127.0.0.1, anonymous, without persistence (so a restart loses every session, the harder
/// case for a client). It can be killed and started again on the same port.
public final class Mosquitto: @unchecked Sendable {
    public let port: Int
    public let directory: TemporaryDirectory
    private var process: ChildProcess?

    /// Picks a free port and, when `start` is true, starts the broker and waits until it accepts
    /// connections. `listenerConfig` adds lines to the listener (TLS files, `allow_anonymous false`,
    /// `password_file`, `acl_file`); it may name files of `directory` as `$DIR`.
    public init(start: Bool = true, listenerConfig: String = "allow_anonymous true",
                prepare: (URL) throws -> Void = { _ in }) throws {
        directory = try TemporaryDirectory(prefix: "liveactivities-mosquitto")
        port = try Self.freePort()
        try prepare(directory.url)
        let listener = listenerConfig.replacingOccurrences(of: "$DIR", with: directory.path)
        // Started as root, mosquitto would switch to the `mosquitto` user, which cannot read this
        // private directory's password, ACL and key files: keep the user the tests run as.
        let user = geteuid() == 0 ? "user root\n" : ""
        // set_tcp_nodelay: as docs/push.md advises for a broker (its default, Nagle's algorithm on,
        // met the receiver's delayed ACK and held each push 40 ms: issue 29).
        let config = user + "listener \(port) 127.0.0.1\n\(listener)\npersistence false\nmax_queued_messages 100000\nset_tcp_nodelay true\n"
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        if start { try self.start() }
    }

    /// `mqtt://127.0.0.1:PORT`, for `push-broker`.
    public var url: String { "mqtt://127.0.0.1:\(port)" }

    private var configFile: URL { directory.url.appendingPathComponent("mosquitto.conf") }
    public var logFile: URL { directory.url.appendingPathComponent("mosquitto.log") }

    public func start() throws {
        process = try ChildProcess(Self.executable, ["-c", configFile.path], output: .file(logFile))
        guard waitUntil(timeout: 10, { Self.accepts(port: port) }) else {
            process?.stop()
            throw MosquittoError.didNotStart((try? String(contentsOf: logFile, encoding: .utf8)) ?? "")
        }
    }

    /// `mosquitto` from PATH, else where Debian puts it (/usr/sbin is not on every user's PATH).
    static var executable: String {
        let found = ChildProcess.resolve("mosquitto")
        return found.contains("/") ? found : "/usr/sbin/mosquitto"
    }

    /// SIGKILL, as a crash or a lost network would look to its clients.
    public func kill() {
        process?.stop()
        process = nil
    }

    public var isRunning: Bool { process?.isRunning ?? false }

    /// Publishes with `mosquitto_pub` at QoS 1 (it returns once the broker has the message).
    public func publish(_ topic: String, _ payload: String, arguments: [String] = []) throws {
        let file = directory.url.appendingPathComponent("payload-\(UUID().uuidString)")
        try payload.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try runCommand("mosquitto_pub", ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", topic, "-f", file.path] + arguments)
        guard result.status == 0 else { throw MosquittoError.publishFailed(result.stderr) }
    }

    deinit { process?.stop() }

    /// A port nobody listens on now (bound to port 0, then released).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Int32 in
                guard bind(fd, raw, length) == 0 else { return -1 }
                return getsockname(fd, raw, &length)
            }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a TCP connection to 127.0.0.1:`port` succeeds.
    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// Why the test broker could not be had.
public enum MosquittoError: Error {
    case didNotStart(String)
    case publishFailed(String)
}
