import Testing
@testable import ActivityModel

/// History lines and the statistics computed from them.
@Suite(.timeLimit(.minutes(2))) struct HistoryTests {
    let day = 86_400.0

    func entry(_ kind: String, _ reason: EndReason, endedAt: UnixTime, seconds: Double) -> HistoryEntry {
        HistoryEntry(id: "e\(Int(endedAt))", kind: kind, reason: reason, startedAt: endedAt - seconds,
                     endedAt: endedAt, activeSeconds: seconds)
    }

    @Test func todayTotalStreakAndCounts() {
        let entries = [
            entry("focus", .completed, endedAt: t0 - 600, seconds: 1500),
            entry("focus", .completed, endedAt: t0 - 60, seconds: 2700),
            entry("focus", .cancelled, endedAt: t0 - 30, seconds: 300),
            entry("focus", .completed, endedAt: t0 - day, seconds: 1500),
            entry("focus", .completed, endedAt: t0 - 2 * day, seconds: 1500),
            entry("focus", .completed, endedAt: t0 - 4 * day, seconds: 1500),
            entry("fasting", .ended, endedAt: t0 - 100, seconds: 3600),
        ]
        let statistics = Statistics.compute(entries: entries, now: t0, timeZoneOffset: 0)
        #expect(statistics["focus"] == KindStatistics(todayTotalSeconds: 4200, dayStreak: 3, completedCount: 5,
                                                      cancelledCount: 1, endedCount: 0))
        #expect(statistics["fasting"] == KindStatistics(todayTotalSeconds: 0, dayStreak: 0, completedCount: 0,
                                                        cancelledCount: 0, endedCount: 1))
    }

    @Test func streakStillCountsUntilTheEndOfToday() {
        let entries = [entry("focus", .completed, endedAt: t0 - day, seconds: 60),
                       entry("focus", .completed, endedAt: t0 - 2 * day, seconds: 60)]
        #expect(Statistics.compute(entries: entries, now: t0, timeZoneOffset: 0)["focus"]?.dayStreak == 2)
        #expect(Statistics.compute(entries: entries, now: t0 + 2 * day, timeZoneOffset: 0)["focus"]?.dayStreak == 0)
    }

    @Test func localDaysFollowTheTimeZone() {
        // 12:00 UTC; 13 hours east it is already 01:00 the next day, so 10:00 UTC (23:00 there) was yesterday.
        let entries = [entry("focus", .completed, endedAt: t0 - 7200, seconds: 1500)]
        #expect(Statistics.compute(entries: entries, now: t0, timeZoneOffset: 0)["focus"]?.todayTotalSeconds == 1500)
        let east = Statistics.compute(entries: entries, now: t0, timeZoneOffset: 13 * 3600)["focus"]
        #expect(east?.todayTotalSeconds == 0 && east?.dayStreak == 1)
    }

    @Test func historyLinesRoundTrip() throws {
        let original = HistoryEntry(id: "abc", kind: "focus", reason: .completed, startedAt: t0, endedAt: t0 + 1500,
                                    activeSeconds: 1500, attributes: ["minutes": .int(25)])
        let line = try original.jsonLine()
        #expect(line == #"{"active-seconds":1500,"attributes":{"minutes":{"i":25}},"ended-at":1699964700,"id":"abc","kind":"focus","reason":"completed","started-at":1699963200}"#)
        #expect(HistoryEntry.parse(jsonLines: line + "\nnot json\n\n" + line + "\n") == [original, original])
    }
}
