import DBus
import Foundation
import Testing
import TestSupport

/// `liveactivity kinds`, `history` and `stats` against what the real daemon loaded and wrote,
/// and the command lines the hotkey recipes of docs/hotkeys.md bind.
@Suite("liveactivity kinds, history, stats and hotkey commands", .timeLimit(.minutes(5)))
struct KindsHistoryCLITests {
    @Test func historyAndStatsShowWhatTheDaemonRecorded() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        // Ten minutes of focus completed, one session cancelled, one generic activity ended.
        let done = try c.start("focus", attributes: ["minutes": .uint32(25), "start-time": .int64(Clock.now - 600)])
        try c.end(done, options: ["reason": .string("completed")])
        let dropped = try c.start("focus")
        try c.end(dropped, options: ["reason": .string("cancelled")])
        let other = try c.start("generic", state: ["title": .string("backup")])
        try c.end(other)

        let json = try f.cli(["history", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["id"] as? String } == [other, dropped, done], "newest first")
        #expect(entries.last?["reason"] as? String == "completed")
        #expect((entries.last?["active-seconds"] as? Double).map { (599...602).contains($0) } == true)

        let focusOnly = try f.cli(["history", "--kind", "focus", "--limit", "1"])
        let rows = focusOnly.stdout.split(separator: "\n")
        #expect(rows.count == 2, "a header and one row: \(focusOnly.stdout)")
        #expect(rows.last?.contains(dropped) == true && rows.last?.contains("cancelled") == true)

        let stats = try f.cli(["stats", "--json"])
        #expect(stats.status == 0, "\(stats.stderr)")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: [String: Any]])
        let focus = try #require(figures["focus"])
        #expect(focus["completed"] as? Int == 1 && focus["cancelled"] as? Int == 1 && focus["ended"] as? Int == 0)
        #expect(focus["day-streak"] as? Int == 1)
        #expect((focus["today-seconds"] as? Double).map { (599...602).contains($0) } == true, "\(focus)")
        #expect(figures["generic"]?["ended"] as? Int == 1)

        f.daemon.kill()
        let text = try f.cli(["stats"])
        #expect(text.status == 0, "stats reads the file, no daemon needed: \(text.stderr)")
        let focusRow = text.stdout.split(separator: "\n").first { $0.hasPrefix("focus") } ?? ""
        #expect(focusRow.contains("10m") && focusRow.contains("1 day"), "\(text.stdout)")
    }

    /// Issue 28, row 2: titles holding U+2028, U+2029, U+0085 (a push can send them too) were
    /// written raw, and `stats` dropped their entries without a word (6 ended, 3 counted).
    @Test func statsCountsActivitiesWhoseTitleHoldsALineSeparator() throws {
        let f = try DaemonFixture(recorderName: nil)
        let titles = ["\u{2028}ls", "a\u{2029}b", "c\u{85}d", "plain", "v\u{0B}t", "f\u{0C}f"]
        for title in titles {
            let id = try f.client.start("generic", state: ["title": .string(title)])
            try f.client.end(id)
        }
        let stats = try f.cli(["stats", "--json"])
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: [String: Any]])
        #expect(figures["generic"]?["ended"] as? Int == 6, "\(stats.stdout)")
        #expect(!stats.stderr.contains("could not be read"), "\(stats.stderr)")
        let lines = try String(contentsOf: f.daemon.historyFile, encoding: .utf8).split(whereSeparator: \.isNewline)
        #expect(lines.count == 6, "one line per entry by any reader's rule")
        let json = try f.cli(["history", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(Set(rows.compactMap { $0["title"] as? String }) == Set(titles), "titles come back exactly")
    }

    @Test func malformedKindFileIsReportedAndTheOtherKindsWork() throws {
        let bus = try PrivateBus()
        let daemon = try DaemonProcess(bus: bus, start: false)
        let kinds = daemon.configDirectory.appendingPathComponent("kinds")
        try FileManager.default.createDirectory(at: kinds, withIntermediateDirectories: true)
        try #"{"name": "broken", "attributes": {"minutes": {"type": "integer", "max": "ten"}}}"#
            .write(to: kinds.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        try #"{"name": "tea", "attributes": {"minutes": {"type": "integer", "default": 4}}, "timer": {"duration": {"minutes": "minutes"}, "counts": "down"}, "templates": {"title": "Tea", "compact-trailing": "{remaining|m:ss}"}}"#
            .write(to: kinds.appendingPathComponent("tea.json"), atomically: true, encoding: .utf8)
        try daemon.start()
        let c = try TestClient(bus: bus)

        #expect(daemon.log().contains("broken.json"), "the daemon's log names the file: \(daemon.log())")
        #expect(daemon.log().contains("attributes.minutes.max"), "and the key")
        guard case .array(_, let names) = try c.property("Kinds") else { Issue.record("Kinds is not an array"); return }
        #expect(names.compactMap(\.string) == ["fasting", "focus", "generic", "tea"])
        let focus = try c.start("focus")
        #expect(try c.get(focus)["status"]?.string == "active")
        let tea = try c.start("tea")
        #expect(try c.get(tea)["compact-trailing"]?.string == "4:00")

        let listing = try runCommand(BuiltProducts.path(of: "liveactivity"), ["kinds"], environment: daemon.environment)
        #expect(listing.status == 0)
        #expect(listing.stdout.contains("broken.json: attributes.minutes.max"), "\(listing.stdout)")
        #expect(listing.stdout.contains("fasting (Fasting)") && listing.stdout.contains("tea (tea)"))
        #expect(listing.stdout.contains("session-type") && listing.stdout.contains("one of \"Pomodoro\""))
        let json = try runCommand(BuiltProducts.path(of: "liveactivity"), ["kinds", "--json"], environment: daemon.environment)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let problems = object?["problems"] as? [[String: String]]
        #expect(problems?.count == 1 && problems?.first?["file"]?.hasSuffix("/broken.json") == true)
        let fasting = (object?["kinds"] as? [[String: Any]])?.first { $0["name"] as? String == "fasting" }
        #expect((fasting?["attributes"] as? [String: Any])?["fasting-hours"] != nil)
    }

    @Test func hotkeyCommandLines() throws {
        let f = try DaemonFixture(recorderName: nil)
        let fast = try f.cli(["start", "fasting", "protocol=16:8"])
        #expect(fast.status == 0, "\(fast.stderr)")
        let fastID = fast.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let attributes = try f.client.get(fastID)["attributes"]?.vardict ?? [:]
        #expect(attributes["protocol"] == .string("16:8"))
        #expect(attributes["fasting-hours"]?.integer == 16)

        let on = try f.cli(["toggle", "focus", "session-type=Pomodoro"])
        #expect(on.status == 0, "\(on.stderr)")
        let words = on.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(words.count == 2 && words.last == "started", "\(on.stdout)")
        let focusID = words.first ?? ""
        #expect(try f.client.get(focusID)["attributes"]?.vardict?["minutes"]?.integer == 25)
        let off = try f.cli(["toggle", "focus", "session-type=Pomodoro"])
        #expect(off.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(focusID) ended")
        #expect(try f.client.get(focusID)["status"]?.string == "ended")

        let end = try f.cli(["end", fastID, "--reason", "completed"])
        #expect(end.status == 0, "\(end.stderr)")
        #expect(try f.client.get(fastID)["reason"]?.string == "completed")
    }

    @Test func newCommandsHaveHelpAndAreListed() throws {
        for command in ["kinds", "history", "stats"] {
            let result = try runCommand(BuiltProducts.path(of: "liveactivity"), [command, "--help"], environment: [:])
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("Usage: liveactivity \(command)"), "\(command): \(result.stdout)")
        }
        let top = try runCommand(BuiltProducts.path(of: "liveactivity"), ["--help"], environment: [:])
        #expect(["kinds", "history", "stats"].allSatisfy { top.stdout.contains("  \($0) ") }, "\(top.stdout)")
        let bad = try runCommand(BuiltProducts.path(of: "liveactivity"), ["history", "--limit", "many"], environment: [:])
        #expect(bad.status == 2 && bad.stderr.contains("--limit"))
    }
}
