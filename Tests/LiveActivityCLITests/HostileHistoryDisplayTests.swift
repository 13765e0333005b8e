import ActivityModel
import Foundation
import Testing
@testable import LiveActivityCLI

/// Issue 18, point 1, CLI side: `liveactivity history` and `stats` died with "Double value
/// cannot be converted" on a history line with `ended-at` or `active-seconds` of ±1e300. Such
/// lines are now set aside when the file is read, and an entry that still carries such a time
/// (made in memory) is shown with `invalid time` instead of a crash; the terminal text helper
/// shows control characters instead of obeying them.
@Suite(.timeLimit(.minutes(5))) struct HostileHistoryDisplayTests {
    static let hostile: [Double] = [1e300, -1e300, 9.3e18, -9.3e18, .nan, .infinity, -.infinity, -0.0]

    @Test(arguments: hostile)
    func historyAndStatsShowAHostileEntry(value: Double) {
        let lines = [
            #"{"id":"a","kind":"focus","reason":"completed","started-at":1700000000,"ended-at":\#(value.isFinite ? "\(value)" : "0"),"active-seconds":1500,"attributes":{}}"#,
            #"{"id":"b","kind":"focus","reason":"completed","started-at":1700000000,"ended-at":1700001500,"active-seconds":\#(value.isFinite ? "\(value)" : "1e300"),"attributes":{}}"#,
        ].joined(separator: "\n")
        var entries = HistoryEntry.parse(jsonLines: lines)
        #expect(entries.allSatisfy { $0.isWithinRange }, "a line out of range is set aside: \(entries)")
        let lineAIsUsable = !value.isFinite || InputLimits.isTime(value)   // its ended-at is 0 when not finite
        let lineBIsUsable = value.isFinite && InputLimits.isDuration(value) && value >= 0
        #expect(entries.count == (lineAIsUsable ? 1 : 0) + (lineBIsUsable ? 1 : 0), "\(entries)")
        entries.append(HistoryEntry(id: "c", kind: "focus", reason: .completed, startedAt: value, endedAt: value, activeSeconds: value))
        let report = HistoryReport(entries: entries)
        let text = HistoryReport.historyText(report.recent(kind: nil, limit: 0), timeZone: TimeZone(identifier: "UTC") ?? .current)
        #expect(text.contains("focus"))
        if !InputLimits.isTime(value) { #expect(text.contains("invalid time")) }
        _ = HistoryReport.historyJSON(entries)
        let stats = HistoryReport.statsText(report.statistics(now: 1_700_002_000, timeZoneOffset: 0))
        #expect(stats.contains("focus"))
        _ = HistoryReport.statsText(report.statistics(now: value, timeZoneOffset: value))
    }

    @Test func terminalTextShowsControlCharacters() {
        #expect(TerminalText.neutralised("a\u{1B}[2Jb\u{7}\u{9B}c\td\ne") == "a\\u{1B}[2Jb\\u{7}\\u{9B}c\td\ne")
        #expect(TerminalText.neutralised("plain é 🙂") == "plain é 🙂")
    }
}
