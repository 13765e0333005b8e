import ActivityModel
import Foundation
import Testing
@testable import LiveActivityCLI

/// `liveactivity history --format csv|json` and `stats --by day|task`, run as a user runs them,
/// on a history file in a temporary state directory.
@Suite(.timeLimit(.minutes(5))) struct HistoryExportTests {
    /// Runs the CLI with `$XDG_STATE_HOME` at `state`; returns what it printed.
    func run(_ arguments: [String], state: URL,
             utcOffset: @escaping @Sendable (Int64) -> Int64 = SystemTimeZone.utcOffset(at:)) -> (Result<Void, CLIError>, String) {
        var printed: [String] = []
        let tool = CommandLineTool(environment: ["XDG_STATE_HOME": state.path, "HOME": state.path],
                                   schema: FakeSchema(), output: { printed.append($0) }, utcOffset: utcOffset)
        let result = tool.run(arguments)
        return (result, printed.joined(separator: "\n"))
    }

    func stateWithHistory() throws -> URL {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("history-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state.appendingPathComponent("liveactivities"), withIntermediateDirectories: true)
        let lines = [
            #"{"id":"a","kind":"focus","reason":"completed","started-at":1700000000,"ended-at":1700001500,"active-seconds":1380,"#
                + #""away-seconds":420,"title":"Pomodoro · Write, \"draft\"","task":"Write, \"draft\"\nv2","attributes":{}}"#,
            #"{"id":"b","kind":"focus","reason":"cancelled","started-at":1700003000,"ended-at":1700003600,"active-seconds":600,"attributes":{}}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(to: state.appendingPathComponent("liveactivities/history.jsonl"),
                                                         atomically: true, encoding: .utf8)
        return state
    }

    @Test func csvHasOneQuotedRowPerEndedActivity() throws {
        let state = try stateWithHistory()
        defer { try? FileManager.default.removeItem(at: state) }
        let (result, text) = run(["history", "--format", "csv"], state: state)
        #expect((try? result.get()) != nil)
        let records = (text + "\n").components(separatedBy: "\r\n")
        #expect(records.first == "id,kind,title,task,start,end,reason,focused-seconds,away-seconds")
        let start = HistoryExport.isoTime(1_700_000_000, .current), end = HistoryExport.isoTime(1_700_001_500, .current)
        #expect(records.contains("a,focus,\"Pomodoro · Write, \"\"draft\"\"\",\"Write, \"\"draft\"\"\nv2\",\(start),\(end),completed,1380,420"),
                "\(records)")
        #expect(records.contains { $0.hasPrefix("b,focus,,,") && $0.hasSuffix(",cancelled,600,0") }, "older entries: empty title, no away time")
        #expect(records.last == "", "every record, the last too, ends with CRLF")
    }

    @Test func jsonRowsCarryFocusedAndAwaySeconds() throws {
        let state = try stateWithHistory()
        defer { try? FileManager.default.removeItem(at: state) }
        let (_, text) = run(["history", "--format", "json"], state: state)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        let a = try #require(rows.first { $0["id"] as? String == "a" })
        #expect(a["focused-seconds"] as? Double == 1380 && a["away-seconds"] as? Double == 420)
        #expect(a["task"] as? String == "Write, \"draft\"\nv2")
    }

    @Test func statsByTaskAndByDay() throws {
        let state = try stateWithHistory()
        defer { try? FileManager.default.removeItem(at: state) }
        let (_, json) = run(["stats", "--by", "task", "--json"], state: state)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["task"] as? String } == ["Write, \"draft\"\nv2", "focus"], "the task, else the title, else the kind")
        #expect(rows.first?["away-seconds"] as? Double == 420)
        let (_, text) = run(["stats", "--by", "day"], state: state)
        #expect(text.hasPrefix("day"), "\(text)")
        #expect(text.contains("33m"), "focused 1380 + 600 s on the day: \(text)")
        let (bad, _) = run(["stats", "--by", "week"], state: state)
        if case .failure(let error) = bad { #expect(error.message.contains("expected day or task")) } else { Issue.record("accepted --by week") }
        let (badFormat, _) = run(["history", "--format", "xml"], state: state)
        if case .failure(let error) = badFormat { #expect(error.message.contains("csv")) } else { Issue.record("accepted xml") }
    }

    /// Days are the CLI's local days, from its one zone provider: at UTC+1 the second session
    /// (23:03 UTC) starts on the next day.
    @Test func statsByDayFollowsTheToolsZone() throws {
        let state = try stateWithHistory()
        defer { try? FileManager.default.removeItem(at: state) }
        let (_, utc) = run(["stats", "--by", "day", "--json"], state: state, utcOffset: { _ in 0 })
        let (_, plusOne) = run(["stats", "--by", "day", "--json"], state: state, utcOffset: { _ in 3600 })
        let utcDays = try #require(try JSONSerialization.jsonObject(with: Data(utc.utf8)) as? [[String: Any]])
        let plusOneDays = try #require(try JSONSerialization.jsonObject(with: Data(plusOne.utf8)) as? [[String: Any]])
        #expect(utcDays.count == 1, "\(utc)")
        #expect(plusOneDays.count == 2, "\(plusOne)")
    }
}

/// Issue 28, row 1: a title or task that a spreadsheet would run as a formula reaches the cell
/// as text (a leading `'`, as OWASP advises), still quoted as RFC 4180 says; JSON stays exact.
@Suite(.timeLimit(.minutes(5))) struct CSVFormulaTests {
    static let formulas = [#"=HYPERLINK("http://x","y")"#, #"+cmd|' /C calc'!A0"#, "@SUM(1+1)", "-2+3", "\r=1+1", "\t=1+1"]

    @Test(arguments: formulas)
    func aSpreadsheetShowsAFormulaTitleAsTextNotAsAFormula(title: String) throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("csv-formula-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state.appendingPathComponent("liveactivities"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        var entry = HistoryEntry(id: "f", kind: "focus", reason: .completed, startedAt: 1_700_000_000,
                                 endedAt: 1_700_001_500, activeSeconds: 1500)
        entry.title = title
        entry.task = title
        try (try entry.jsonLine() + "\n").write(to: state.appendingPathComponent("liveactivities/history.jsonl"),
                                               atomically: true, encoding: .utf8)
        var printed: [String] = []
        func run(_ arguments: [String]) -> String {
            printed = []
            _ = CommandLineTool(environment: ["XDG_STATE_HOME": state.path, "HOME": state.path], schema: FakeSchema(),
                                output: { printed.append($0) }).run(arguments)
            return printed.joined(separator: "\n")
        }
        let csv = run(["history", "--format", "csv"])
        let quoted = "\"'" + title.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        #expect(csv.contains("f,focus,\(quoted),\(quoted),"), "\(csv.debugDescription)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(run(["history", "--format", "json"]).utf8)) as? [[String: Any]])
        #expect(rows.first?["title"] as? String == title, "JSON carries the title exactly")
        #expect(rows.first?["task"] as? String == title)
    }

    @Test func plainCellsAndNumbersStayAsTheyAre() {
        #expect(CSVText.field("Write") == "Write")
        #expect(CSVText.field("1380") == "1380")
        #expect(CSVText.field("a=b") == "a=b", "only a leading sign starts a formula")
        #expect(CSVText.field("=1+2") == "\"'=1+2\"")
    }
}

/// Issue 28, row 2, as the CLI shows it: entries whose title holds a line separator count, and
/// `history` and `stats` say how many lines they skipped (in text, as their last line; beside
/// CSV and JSON, on stderr, so the output stays what a parser expects).
@Suite(.timeLimit(.minutes(5))) struct HistorySkippedLinesTests {
    @Test func statsCountsATitleWithALineSeparatorAndSaysWhatItSkipped() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("history-skipped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state.appendingPathComponent("liveactivities"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        let raw = #"{"active-seconds":60,"attributes":{},"ended-at":1700000060,"id":"s","kind":"generic","reason":"ended","#
            + "\"started-at\":1700000000,\"title\":\"\u{2028}ls\"}"
        try ([raw, raw, "{broken", raw].joined(separator: "\n") + "\n").write(
            to: state.appendingPathComponent("liveactivities/history.jsonl"), atomically: true, encoding: .utf8)
        var printed: [String] = [], warned: [String] = []
        func run(_ arguments: [String]) -> (out: String, err: String) {
            printed = []
            warned = []
            _ = CommandLineTool(environment: ["XDG_STATE_HOME": state.path, "HOME": state.path], schema: FakeSchema(),
                                output: { printed.append($0) }, warning: { warned.append($0) }).run(arguments)
            return (printed.joined(separator: "\n"), warned.joined(separator: "\n"))
        }
        let stats = run(["stats", "--json"])
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(stats.out.utf8)) as? [String: [String: Any]])
        #expect(figures["generic"]?["ended"] as? Int == 3, "every entry counts: \(stats.out)")
        #expect(stats.err == "1 history line could not be read")
        let text = run(["stats"])
        #expect(text.out.hasSuffix("\n1 history line could not be read"), "\(text.out)")
        let history = run(["history"])
        #expect(history.out.hasSuffix("\n1 history line could not be read"), "\(history.out)")
        #expect(history.out.components(separatedBy: "generic").count - 1 == 3)
        let csv = run(["history", "--format", "csv"])
        #expect((csv.out + "\n").components(separatedBy: "\r\n").count == 5, "a header and 3 rows: \(csv.out.debugDescription)")
        #expect(csv.err == "1 history line could not be read")
        let json = run(["history", "--format", "json"])
        #expect((try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]])?.count == 3)
        #expect(json.err == "1 history line could not be read")
    }
}
