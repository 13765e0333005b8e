import Foundation

/// What a desktop's own tool printed and returned.
struct CommandOutcome: Equatable, Sendable {
    let status: Int32
    let stdout: String
    let stderr: String

    /// Whether the tool could not be found (the runner's convention: status 127).
    var notFound: Bool { status == 127 }
}

/// Runs the desktop's own tools (`gsettings`, `swaymsg reload`, …) for `bind`: a seam so that
/// tests drive each desktop's writes and undo in-process, with a fake in place of the tools.
protocol CommandRunner: Sendable {
    func run(_ program: String, _ arguments: [String]) -> CommandOutcome
}

/// The real runner: finds `program` on the environment's PATH and waits for it.
struct ProcessRunner: CommandRunner {
    let environment: [String: String]

    func run(_ program: String, _ arguments: [String]) -> CommandOutcome {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        guard let binary = path.split(separator: ":").map({ "\($0)/\(program)" })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return CommandOutcome(status: 127, stdout: "", stderr: "\(program): not found on PATH")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            return CommandOutcome(status: 126, stdout: "", stderr: "\(program): \(error)")
        }
        let errors = ErrorReader(err.fileHandleForReading)
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return CommandOutcome(status: process.terminationStatus, stdout: output, stderr: errors.text())
    }
}

/// Drains a tool's stderr on a thread of its own while stdout is read, so a tool that fills
/// one pipe while we wait on the other cannot block.
private final class ErrorReader: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            let read = handle.readDataToEndOfFile()
            lock.lock(); data = read; lock.unlock()
            done.signal()
        }
    }

    func text() -> String {
        done.wait()
        lock.lock(); defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}
