import Foundation
import Testing
import TestSupport

/// The README's tour and the `busctl` and `gdbus` examples of docs/usage.md, run as written (on
/// a private bus instead of the user's), so the front door never shows a command that fails.
@Suite("README examples", .timeLimit(.minutes(5)))
struct ReadmeTests {
    /// The lines of the fenced block that follows `heading` in `file` (a path from this
    /// directory: docs/usage.md unless told).
    static func block(after heading: String, in file: String = "../../docs/usage.md") throws -> [String] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(file).standardized
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let start = text.range(of: heading),
              let open = text.range(of: "```sh\n", range: start.upperBound..<text.endIndex),
              let close = text.range(of: "```", range: open.upperBound..<text.endIndex) else { return [] }
        return text[open.upperBound..<close.lowerBound].split(separator: "\n").map(String.init)
    }

    /// Runs each line in bash, in order, after rewriting how it reaches the bus; returns failures.
    static func run(_ lines: [String], rewrite: (String) -> String, environment: [String: String]) throws -> [String] {
        var failures: [String] = []
        var prelude = ""
        for line in lines where !line.isEmpty {
            let rewritten = rewrite(line)
            if line.contains("=\"") && !line.contains(" call ") { prelude += rewritten + "\n"; continue }
            let result = try runCommand("/bin/bash", ["-c", "set -e\n" + prelude + rewritten], environment: environment, timeout: 20)
            if result.status != 0 { failures.append("\(line) → \(result.stderr)") }
        }
        return failures
    }

    /// Whatever is running (issue 30: with a focus session live, `Toggle` ended it and the next
    /// lines failed): the user's own session stays untouched, and the block runs twice.
    @Test func busctlExamplesWork() throws {
        let f = try DaemonFixture(recorderName: nil)
        let mine = try f.client.start("focus", attributes: ["session-type": .string("Deep Work")])
        let lines = try Self.block(after: "## From busctl")
        #expect(lines.count >= 10)
        for _ in 0..<2 {
            let failures = try Self.run(lines, rewrite: { $0.replacingOccurrences(of: "--user", with: "--address=\(f.bus.address)") },
                                        environment: f.daemon.environment)
            #expect(failures.isEmpty, "\(failures)")
        }
        #expect(try f.client.property("Enabled") == .boolean(true), "the last example switched Enabled off and on again")
        #expect(try f.client.get(mine)["status"]?.string == "active", "the user's own focus session goes on")
    }

    @Test func gdbusExamplesWork() throws {
        let f = try DaemonFixture(recorderName: nil)
        let lines = try Self.block(after: "## From gdbus").filter { !$0.contains("gdbus monitor") }
        #expect(lines.count >= 5)
        let failures = try Self.run(lines, rewrite: { $0.replacingOccurrences(of: "--session", with: "--address \(f.bus.address)") },
                                    environment: f.daemon.environment)
        #expect(failures.isEmpty, "\(failures)")
        #expect(try f.client.get("build")["reason"]?.string == "completed")
    }

    @Test func readmeTourCommandsWork() throws {
        let f = try DaemonFixture(recorderName: nil)
        let cli = BuiltProducts.path(of: "liveactivity")
        var lines: [String] = []
        for step in ["**1. The command line.**", "**2. Any D-Bus client.**", "**3. A hotkey.**"] {
            lines += try Self.block(after: step, in: "../../README.md")
        }
        #expect(lines.count == 3)
        let failures = try Self.run(lines, rewrite: {
            $0.replacingOccurrences(of: "busctl --user", with: "busctl --address=\(f.bus.address)")
                .replacingOccurrences(of: "liveactivity ", with: cli + " ")
        }, environment: f.daemon.environment)
        #expect(failures.isEmpty, "\(failures)")
        let kinds = try f.client.list().map { $0[1] }.sorted()
        #expect(kinds == ["fasting", "focus", "generic"], "the tour started a fast, a build and a focus session: \(kinds)")
    }
}
