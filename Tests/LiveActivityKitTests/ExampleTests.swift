import DBus
import Foundation
import TestSupport
import Testing

/// The example apps, run as docs/usage.md shows them (on a private bus).
@Suite("focusflow and leanup examples", .timeLimit(.minutes(5)))
struct ExampleTests {
    /// The example lines of docs/usage.md, each `swift run X` pointed at the built X; `leanup start` and
    /// `resume` stop after their first update (`--for 0`) instead of running for hours.
    static func readmeLines() throws -> [String] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/usage.md").standardized
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let heading = text.range(of: "## From Swift (LiveActivityKit)"),
              let open = text.range(of: "```sh\n", range: heading.upperBound..<text.endIndex),
              let close = text.range(of: "```", range: open.upperBound..<text.endIndex) else { return [] }
        return text[open.upperBound..<close.lowerBound].split(separator: "\n").map { line in
            var command = String(line.split(separator: "#", maxSplits: 1)[0]).trimmingCharacters(in: .whitespaces)
            for product in ["focusflow", "leanup"] {
                command = command.replacingOccurrences(of: "swift run \(product)", with: BuiltProducts.path(of: product))
            }
            if command.contains("leanup start") || command.contains("leanup resume") { command += " --for 0" }
            return command
        }
    }

    @Test("The example commands of docs/usage.md run and do what their comments say")
    func readmeExamples() throws {
        let world = try KitWorld()
        let lines = try Self.readmeLines()
        #expect(lines.count == 6)
        var outputs: [String] = []
        for line in lines {
            let result = try runCommand("/bin/bash", ["-c", line], environment: world.daemon.environment, timeout: 30)
            #expect(result.status == 0, "\(line) → \(result.stdout)\(result.stderr)")
            outputs.append(result.stdout)
        }
        #expect(outputs[0].hasPrefix("Started: Pomodoro · Write the report: 25:00 left"), "\(outputs[0])")
        #expect(outputs[1].hasPrefix("Running: Pomodoro · Write the report"), "\(outputs[1])")
        #expect(outputs[2] == "Session completed.\n")
        #expect(outputs[3].hasPrefix("Started: 16:8 fast: 15h 30m, 96% (fasting)"), "\(outputs[3])")
        #expect(outputs[4].hasPrefix("Resumed: 16:8 fast: 15h 30m"), "\(outputs[4])")
        #expect(outputs[5].hasPrefix("Fast ended: 16:8 fast: 15h 30m"), "\(outputs[5])")
        let history = try world.runProduct("liveactivity", ["history"]).stdout.split(separator: "\n")
            .map { $0.split(separator: " ").map(String.init) }
        #expect(history.contains { $0.contains("FocusSessionAttributes") && $0.contains("completed") }, "\(history)")
        #expect(history.contains { $0.contains("FastingActivityAttributes") && $0.contains("cancelled") }, "\(history)")
    }

    @Test("leanup: a fast begun in the past is updated on its interval, restored by another process, and ended")
    func leanupFast() throws {
        let world = try KitWorld()
        let run = try world.runProduct("leanup", ["start", "18:6", "--hours-ago", "19", "--interval", "0.3", "--for", "1"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.components(separatedBy: "(eating window)").count >= 4, "\(run.stdout)")
        let ids = try world.call("List").first
        guard case .array(_, let rows)? = ids, case .structure(let fields)? = rows.first, let id = fields.first?.string else {
            Issue.record("no activity listed")
            return
        }
        let held = try world.get(id)
        #expect(held["kind"]?.string == "FastingActivityAttributes")
        #expect(held["title"]?.string == "Eating window · 18:6")
        #expect(held["state"]?.vardict?["isEatingWindow"] == .boolean(true))
        #expect((held["state"]?.vardict?["elapsedSeconds"]?.integer ?? 0) >= 19 * 3600)
        #expect(held["attributes"]?.vardict?["fastingHours"] == .int64(18))
        let status = try world.runProduct("leanup", ["status"])
        #expect(status.stdout.hasPrefix("18:6 fast: 19h 0m, 100% (eating window), activity \(id)"), "\(status.stdout)")
        let ended = try world.runProduct("leanup", ["end"])
        #expect(ended.status == 0)
        #expect(try world.get(id)["reason"]?.string == "completed")
    }
}
