import Foundation
@testable import LiveActivityCLI

/// A fresh directory standing in for the user's HOME (XDG dirs under it), removed at deinit.
final class FakeHome {
    let path: String

    init() {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("la-hotkeys-" + UUID().uuidString)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    var environment: [String: String] {
        ["HOME": path, "XDG_CONFIG_HOME": path + "/.config", "XDG_DATA_HOME": path + "/.local/share", "PATH": "/usr/bin:/bin"]
    }

    func write(_ text: String, _ relative: String) throws {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: full))
    }

    /// Every file under HOME with its bytes, and every directory: what "as they were" compares.
    func snapshot() -> [String: Data] {
        var result: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: path) else { return result }
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path + "/" + relative, isDirectory: &isDirectory)
            result[relative + (isDirectory.boolValue ? "/" : "")] = isDirectory.boolValue ? Data() : FileManager.default.contents(atPath: path + "/" + relative)
        }
        return result
    }
}

/// Records the tools run and answers from a script: each program's outcome, default success.
final class RecordingRunner: CommandRunner, @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [[String]] = []
    let answers: [String: CommandOutcome]

    init(answers: [String: CommandOutcome] = [:]) { self.answers = answers }

    var recorded: [[String]] { lock.lock(); defer { lock.unlock() }; return calls }

    func run(_ program: String, _ arguments: [String]) -> CommandOutcome {
        lock.lock(); calls.append([program] + arguments); lock.unlock()
        return answers[program] ?? CommandOutcome(status: 0, stdout: "", stderr: "")
    }
}

/// kglobalaccel as a list of calls and the shortcuts it holds.
final class FakeGlobalAccel: GlobalAccel, @unchecked Sendable {
    var running = true
    var calls: [String] = []
    var shortcuts: [String: [Int32]] = [:]

    func isRunning() -> Bool { running }

    func register(component: String, friendlyName: String, keys: [Int32]) throws(CLIError) {
        calls.append("register \(component) \(keys)")
        shortcuts[component] = keys
    }

    func unregister(component: String) throws(CLIError) {
        calls.append("unregister \(component)")
        shortcuts[component] = nil
    }
}

/// A CommandLineTool whose hotkey commands reach only `home`, `runner` and `accel`.
func hotkeyTool(_ home: FakeHome, runner: any CommandRunner = RecordingRunner(), accel: any GlobalAccel = FakeGlobalAccel(),
                extra: [String: String] = [:], output: @escaping (String) -> Void = { _ in }) -> CommandLineTool {
    let environment = home.environment.merging(extra) { $1 }
    return CommandLineTool(environment: environment, schema: FakeSchema(), output: output,
                           hotkeys: HotkeySystem(environment: environment, runner: runner, globalAccel: accel))
}
