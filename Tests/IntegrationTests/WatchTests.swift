import DBus
import Foundation
import Testing
import TestSupport

/// `liveactivity watch` as a status bar runs it: the real binary, its stdout on a pipe read
/// line by line, against the real daemon on a private bus.
@Suite("liveactivity watch", .timeLimit(.minutes(5)))
struct WatchTests {
    /// The compact text a line carries, read back the way each status bar reads it.
    static func compactText(of line: String, format: String) -> String? {
        switch format {
        case "plain":
            return line
        case "polybar":
            return line.replacingOccurrences(of: "%%", with: "%")
        default:
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { return nil }
            return object[format == "waybar" ? "text" : "full_text"] as? String
        }
    }

    static func noAdjacentDuplicates(_ lines: [String]) -> Bool {
        zip(lines, lines.dropFirst()).allSatisfy { $0 != $1 }
    }

    @Test(arguments: ["plain", "waybar", "i3blocks", "polybar"])
    func printsALinePerChange(format: String) throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        _ = try c.start("generic", state: ["title": .string("Backup"), "progress": .double(0.4)],
                        options: ["id": .string("backup"), "relevance": .double(1)])
        let watch = try WatchProcess(format: format, environment: f.daemon.environment)
        defer { watch.stop() }
        func text(_ index: Int) -> String? { Self.compactText(of: watch.lines[index], format: format) }
        func waitForText(from start: Int, _ matches: @escaping (String) -> Bool) -> Int? {
            watch.output.waitForLine(from: start) { line in Self.compactText(of: line, format: format).map(matches) ?? false }
        }

        #expect(watch.output.waitForCount(1), "the current text is printed at once")
        #expect(text(0) == "Backup 40%")

        let now = Int64(Date().timeIntervalSince1970)
        _ = try c.start("generic", attributes: ["timer-start": .int64(now), "timer-end": .int64(now + 125)],
                        state: ["title": .string("Tea")], options: ["id": .string("tea"), "relevance": .double(0.5)])
        let started = try #require(waitForText(from: 1) { $0.hasPrefix("Backup 40% · 2:0") }, "a new line on start: \(watch.lines)")
        let ticked = try #require(waitForText(from: started + 1) { $0.hasPrefix("Backup 40% · 2:0") },
                                  "a new line when the timer ticks: \(watch.lines)")
        #expect(text(ticked) != text(started))

        try c.update("tea", [:], options: ["relevance": .double(5)])
        let reordered = try #require(waitForText(from: ticked + 1) { $0.hasPrefix("Tea 2:0") || $0.hasPrefix("Tea 1:5") },
                                     "relevance puts Tea first: \(watch.lines)")
        #expect(text(reordered)?.hasSuffix(" · 40%") == true)

        try c.end("tea")
        let teaEnded = try #require(waitForText(from: reordered + 1) { $0 == "Backup 40%" }, "\(watch.lines)")
        try c.end("backup")
        #expect(waitForText(from: teaEnded + 1) { $0.isEmpty } != nil, "an empty line when nothing is live: \(watch.lines)")

        #expect(Self.noAdjacentDuplicates(watch.lines), "\(watch.lines)")
        #expect(watch.lines.allSatisfy { Self.compactText(of: $0, format: format) != nil }, "every line parses: \(watch.lines)")
    }

    @Test func waybarCarriesTooltipClassAndPercentage() throws {
        let f = try DaemonFixture(recorderName: nil)
        _ = try f.client.start("generic", state: ["title": .string("Backup"), "body": .string("Copying photos"),
                                                  "progress": .double(0.4)], options: ["id": .string("backup")])
        let watch = try WatchProcess(format: "waybar", environment: f.daemon.environment)
        defer { watch.stop() }
        #expect(watch.output.waitForCount(1))
        let first = try #require(watch.objects().first, "\(watch.lines)")
        #expect(first["text"] as? String == "Backup 40%")
        let tooltip = try #require(first["tooltip"] as? String)
        #expect(tooltip.contains("Backup") && tooltip.contains("Copying photos"), "\(tooltip)")
        #expect(first["class"] as? String == "active")
        #expect(first["percentage"] as? Int == 40)

        try f.client.update("backup", ["progress": .double(0.75)])
        #expect(watch.output.waitForLine(from: 1) { $0.contains("\"percentage\":75") } != nil, "\(watch.lines)")

        try f.client.end("backup")
        let idle = try #require(watch.output.waitForLine(from: 1) { $0.contains("\"class\":\"idle\"") }, "\(watch.lines)")
        let last = try #require(watch.objects(from: idle).first)
        #expect(last["text"] as? String == "")
        #expect(last["percentage"] == nil, "no progress, no percentage")
    }

    @Test func polybarEscapesPercentAndLinesStayOneLine() throws {
        let f = try DaemonFixture(recorderName: nil)
        _ = try f.client.start("generic", state: ["title": .string("two\nlines"), "progress": .double(0.4)],
                               options: ["id": .string("p")])
        let watch = try WatchProcess(format: "polybar", environment: f.daemon.environment)
        defer { watch.stop() }
        #expect(watch.output.waitForCount(1))
        #expect(watch.lines.first == "two lines 40%%", "\(watch.lines)")
    }

    @Test func carriesOnAcrossADaemonRestart() throws {
        let f = try DaemonFixture(recorderName: nil)
        _ = try f.client.start("generic", state: ["title": .string("Backup"), "progress": .double(0.4)],
                               options: ["id": .string("backup")])
        let watch = try WatchProcess(format: "plain", environment: f.daemon.environment)
        defer { watch.stop() }
        #expect(watch.waitForLine("Backup 40%") == 0)
        f.daemon.kill()
        let gone = try #require(watch.waitForLine("", from: 1), "an empty line while the daemon is away: \(watch.lines)")
        try f.daemon.start()
        #expect(watch.waitForLine("Backup 40%", from: gone + 1) != nil, "the restored text: \(watch.lines)")
        #expect(watch.child.isRunning)
        #expect(Self.noAdjacentDuplicates(watch.lines), "\(watch.lines)")
    }

    @Test func waitsForADaemonThatIsNotThereYet() throws {
        let bus = try PrivateBus()
        let daemon = try DaemonProcess(bus: bus, environment: ["LIVEACTIVITIES_NO_CARDS": "1"], start: false)
        let watch = try WatchProcess(format: "waybar", environment: daemon.environment)
        defer { watch.stop() }
        #expect(watch.output.waitForCount(1))
        #expect(watch.objects().first?["class"] as? String == "absent", "\(watch.lines)")
        try daemon.start()
        #expect(watch.output.waitForLine(from: 1) { $0.contains("\"class\":\"idle\"") } != nil, "\(watch.lines)")
    }

    @Test func exitsQuietlyWhenItsReaderGoesAway() throws {
        let f = try DaemonFixture(recorderName: nil)
        let watch = try WatchProcess(format: "plain", environment: f.daemon.environment)
        defer { watch.stop() }
        #expect(watch.output.waitForCount(1))
        watch.output.close()
        let status = try #require(watch.waitForExit(timeout: 5), "exits by itself, even with nothing new to print")
        #expect(status == 0)
        #expect(watch.standardErrorText().isEmpty)
    }

    @Test func anIdleWatchDoesNotWakeUp() throws {
        let f = try DaemonFixture(recorderName: nil)
        _ = try f.client.start("generic", state: ["title": .string("Still"), "progress": .double(0.5)])
        let watch = try WatchProcess(format: "waybar", environment: f.daemon.environment)
        defer { watch.stop() }
        #expect(watch.output.waitForCount(1))
        usleep(300_000)  // settling after its first line (subscriptions, buffers): not counted
        let before = watch.contextSwitches()
        usleep(2_000_000)  // the subject: two idle seconds, measured in context switches
        let after = watch.contextSwitches()
        #expect(before > 0)
        #expect(after - before <= 2, "context switches in 2 s of idling: \(after - before)")
        #expect(watch.lines.count == 1)
    }
}
