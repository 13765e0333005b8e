import ActivityModel
import DBus
import Foundation
import Testing
import TestSupport

/// `history.jsonl` rotates (issue 14, fault 3): a year of heavy use stays a small file, and
/// `liveactivity stats` reports exactly what it reported before the rotation, fast.
@Suite("History rotation", .timeLimit(.minutes(5)))
struct HistoryRotationTests {
    /// A year of history ending now: 150 entries a day, completed focus sessions every day of
    /// the last 12 (a streak), cancelled and ended ones in between. About 8 MB: past the 1 MB
    /// threshold, and its last 30 days alone are past half of it, so the rotation folds by size
    /// as well as by age. (It was 400 a day, 22 MB, until issue 20: 10 s of CPU for the same proof.)
    static func aYear(now: Double) -> [HistoryEntry] {
        var entries: [HistoryEntry] = []
        let perDay = 150
        for day in stride(from: 365, through: 1, by: -1) {
            for n in 0..<perDay {
                let end = now - Double(day) * 86_400 + Double(n) * 86_400 / Double(perDay)
                let reason: EndReason = day <= 12 && n == 0 ? .completed : (n % 3 == 0 ? .cancelled : .ended)
                entries.append(HistoryEntry(id: "h\(day)x\(n)", kind: n % 2 == 0 ? "focus" : "generic", reason: reason,
                                            startedAt: end - 1_500, endedAt: end, activeSeconds: 1_500))
            }
        }
        return entries
    }

    @Test func aYearOfHistoryRotatesAndStatsStayTheSameAndFast() throws {
        let f = try DaemonFixture(recorderName: nil)
        let now = Date().timeIntervalSince1970
        let year = Self.aYear(now: now)
        var text = ""
        for entry in year { text += try entry.jsonLine() + "\n" }
        try FileManager.default.createDirectory(at: f.daemon.stateDirectory, withIntermediateDirectories: true)
        try text.write(to: f.daemon.historyFile, atomically: true, encoding: .utf8)

        // One more ended activity: the daemon appends it, finds the file due and rotates it.
        let id = try f.client.start("focus", attributes: ["minutes": .uint32(25)])
        try f.client.end(id, options: ["reason": .string("completed")])
        func size() -> Int { (try? FileManager.default.attributesOfItem(atPath: f.daemon.historyFile.path)[.size] as? Int) ?? -1 }
        #expect(waitUntil(timeout: 60) { size() <= 1 << 20 }, "rotated after the reply")
        #expect(size() > 0 && size() <= 1 << 20, "history.jsonl is \(size()) bytes after rotation (it was \(text.utf8.count))")

        let started = Date()
        let stats = try f.cli(["stats", "--json"])
        let seconds = Date().timeIntervalSince(started)
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(seconds < 2, "stats took \(seconds) s")
        print("history: \(text.utf8.count) bytes before rotation, \(size()) after; stats took \(seconds) s")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: [String: Any]])
        let offset = Double(TimeZone.current.secondsFromGMT())
        let lastEntry = try #require(HistoryEntry.parse(jsonLines: try String(contentsOf: f.daemon.historyFile, encoding: .utf8)).last)
        let expected = Statistics.compute(entries: year + [lastEntry], now: Date().timeIntervalSince1970, timeZoneOffset: offset)
        for kind in ["focus", "generic"] {
            let got = try #require(figures[kind])
            let want = try #require(expected[kind])
            #expect(got["completed"] as? Int == want.completedCount, "\(kind) completed")
            #expect(got["cancelled"] as? Int == want.cancelledCount, "\(kind) cancelled")
            #expect(got["ended"] as? Int == want.endedCount, "\(kind) ended")
            #expect(got["day-streak"] as? Int == want.dayStreak, "\(kind) streak")
            #expect(abs((got["today-seconds"] as? Double ?? -1) - want.todayTotalSeconds) < 0.01, "\(kind) today")
        }
        #expect(expected["focus"]?.dayStreak == 13, "the fixture has a streak of 12 days before today, and today's")
    }
}
