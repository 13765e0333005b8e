import Foundation
import Glibc
import TestSupport

/// The real `liveactivity watch --format …` with its stdout on a pipe the test reads line by line.
final class WatchProcess {
    let child: ChildProcess
    let output: LineReader

    init(format: String, environment: [String: String]) throws {
        child = try ChildProcess(BuiltProducts.path(of: "liveactivity"), ["watch", "--format", format],
                                 environment: environment, output: .pipe)
        output = LineReader(child.standardOutput)
    }

    var lines: [String] { output.lines }

    /// Waits for the first line from index `from` on that equals `expected`; returns its index.
    @discardableResult
    func waitForLine(_ expected: String, from start: Int = 0, timeout: Double = 5) -> Int? {
        output.waitForLine(from: start, timeout: timeout) { $0 == expected }
    }

    /// The lines from index `from` on, as JSON objects (non-objects are left out).
    func objects(from start: Int = 0) -> [[String: Any]] {
        lines.dropFirst(start).compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// Voluntary plus involuntary context switches of every thread of the process.
    func contextSwitches() -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/task")) ?? []
        var total = 0
        for task in tasks {
            guard let status = try? String(contentsOfFile: "/proc/\(child.pid)/task/\(task)/status", encoding: .utf8) else { continue }
            for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
                total += Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
            }
        }
        return total
    }

    /// Waits for the process to exit by itself; returns its status, or nil if it did not.
    func waitForExit(timeout: Double = 5) -> Int32? {
        guard waitUntil(timeout: timeout, { !child.isRunning }) else { return nil }
        child.process.waitUntilExit()
        return child.process.terminationStatus
    }

    /// Everything the process wrote on stderr (call after it exited).
    func standardErrorText() -> String {
        String(decoding: child.standardError.readDataToEndOfFile(), as: UTF8.self)
    }

    func stop() {
        child.stop()
        output.close()
    }

    deinit { stop() }
}
