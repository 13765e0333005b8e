import Foundation

/// A program a test starts and must always stop: spawned by `ChildSpawner` (no signal
/// blocked, killed by the kernel when the test process dies), stopped with SIGKILL and
/// always reaped.
public final class ChildProcess: @unchecked Sendable {
    public let process: Process
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let lock = NSLock()
    private var stopped = false

    /// Starts `executable` with `arguments` in `environment`; stdout and stderr are captured.
    public init(_ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
                output: OutputMode = .pipe) throws {
        process = Process()
        ChildSpawner.configure(process, executable: executable, arguments: arguments)
        if let environment { process.environment = environment }
        switch output {
        case .pipe:
            process.standardOutput = stdoutPipe
            process.standardError = stderrPipe
        case .discard:
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        case .file(let url):
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            let handle = try FileHandle(forWritingTo: url)
            handle.seekToEndOfFile()
            process.standardOutput = handle
            process.standardError = handle
        }
        process.standardInput = FileHandle.nullDevice
        try ChildSpawner.run(process)
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    /// The stdout handle, for readers that wait for a line (e.g. a printed address).
    public var standardOutput: FileHandle { stdoutPipe.fileHandleForReading }
    public var standardError: FileHandle { stderrPipe.fileHandleForReading }

    /// Sends `signal` (SIGSTOP, SIGCONT, SIGKILL…) without reaping.
    public func send(_ signal: Int32) { if process.isRunning { kill(pid, signal) } }

    /// Kills with SIGKILL and reaps; safe to call more than once.
    public func stop() {
        lock.lock(); defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
        ReapedProcesses.keep(process)
    }

    deinit { stop() }

    /// Finds `name` on PATH unless it is already a path.
    public static func resolve(_ name: String) -> String {
        if name.contains("/") { return name }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return name
    }
}

/// Where a child's stdout and stderr go: a pipe the test reads (short-lived output only: an
/// unread pipe fills and blocks the child), nowhere, or a log file.
public enum OutputMode {
    case pipe, discard
    case file(URL)
}

/// The result of a command a test ran to completion.
public struct CommandResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

/// Runs a command to completion (at most `timeout` seconds, then SIGKILL) and returns its output.
@discardableResult
public func runCommand(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                       timeout: Double = 30) throws -> CommandResult {
    let process = Process()
    ChildSpawner.configure(process, executable: executable, arguments: arguments)
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try ChildSpawner.run(process)
    let outData = LockedData(), errData = LockedData()
    let group = DispatchGroup()
    for (handle, sink) in [(out.fileHandleForReading, outData), (err.fileHandleForReading, errData)] {
        group.enter()
        DispatchQueue.global().async { sink.set(handle.readDataToEndOfFile()); group.leave() }
    }
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(2_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    group.wait()
    ReapedProcesses.keep(process)
    return CommandResult(status: process.terminationStatus,
                         stdout: String(decoding: outData.get(), as: UTF8.self),
                         stderr: String(decoding: errData.get(), as: UTF8.self))
}

/// Data shared between the reader threads of `runCommand`.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// Polls `condition` until it holds or `timeout` seconds pass; returns whether it held.
/// A cheap condition is checked every 10 ms; one that costs more (it runs `dunstctl`, a shell
/// script and a bus client) waits twice its own time between checks, so a wait never takes
/// more than a third of a CPU on a machine the whole suite shares.
public func waitUntil(timeout: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    repeat {
        let started = DispatchTime.now().uptimeNanoseconds
        if try condition() { return true }
        let cost = DispatchTime.now().uptimeNanoseconds - started
        let left = UInt64(max(0, deadline.timeIntervalSinceNow) * 1e9)  // never past the deadline
        usleep(UInt32(min(max(10_000_000, 2 * cost), 200_000_000, left) / 1_000))
    } while Date() < deadline
    return try condition()
}

/// Reads one line from `handle` (blocking), without the newline.
public func readLine(from handle: FileHandle) -> String? {
    var bytes: [UInt8] = []
    while true {
        let chunk = handle.readData(ofLength: 1)
        guard let byte = chunk.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
        if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
        bytes.append(byte)
    }
}

/// Keeps every reaped `Process` for the life of the test process: Foundation's `Process` on
/// Linux still does bookkeeping for a child on its own thread around `waitUntilExit`, and
/// keeping a few hundred of them costs nothing. (It was added as a guess at the crash of
/// issue 20, "Attempted to read an unowned reference"; that crash was a fake notification
/// server read while it was being freed, fixed in RecordingNotificationServer.)
enum ReapedProcesses {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var kept: [Process] = []

    static func keep(_ process: Process) {
        lock.lock()
        kept.append(process)
        lock.unlock()
    }
}
