import Foundation
import Testing
@testable import ActivityModel

/// Issue 21 in the model: the kind keys `quiets-desktop` and `pauses-when-idle`, the resume
/// after time away, CSV quoting and the history grouped by day and by task.
@Suite(.timeLimit(.minutes(5))) struct FocusHistoryTests {
    func kind(_ extra: String) throws(KindProblem) -> Kind {
        let json = #"{"name": "k", "timer": {"duration": {"minutes": "25"}, "counts": "down"}, "#
            + #""phases": [{"name": "work", "label": "Work", "duration": {"minutes": "20"}}, {"name": "rest", "label": "Rest"}]"#
            + extra + "}"
        return try KindCatalog.parse(Data(json.utf8), file: "k.json")
    }

    @Test func theQuietRuleAndIdlePausingAreRead() throws {
        #expect(try kind("").quietRule == .never)
        #expect(try kind(#", "quiets-desktop": true"#).quietRule == .whileRunning)
        #expect(try kind(#", "quiets-desktop": ["work"]"#).quietRule == .inPhases(["work"]))
        #expect(try kind(#", "pauses-when-idle": true"#).pausesWhenIdle)
        #expect(shippedCatalog.kind(named: "focus")?.quietRule == .whileRunning, "the shipped focus kind quiets the desktop")
        #expect(shippedCatalog.kind(named: "focus")?.pausesWhenIdle == true)
        #expect(shippedCatalog.kind(named: "fasting")?.quietRule == .never)
    }

    /// Issue 26: a kind may keep its activities off the lock screen and out of MPRIS; both on by default.
    @Test func lockScreenAndMediaPlayerKindKeys() throws {
        #expect(try kind("").showsOnLockScreen && kind("").offersMediaPlayer)
        #expect(try !kind(#", "lock-screen": false"#).showsOnLockScreen)
        #expect(try !kind(#", "mpris": false"#).offersMediaPlayer)
        #expect(throws: (any Error).self) { try kind(#", "lock-screen": "no""#) }
    }

    @Test(arguments: [
        (#", "quiets-desktop": ["nap"]"#, "quiets-desktop: no phase named \"nap\""),
        (#", "quiets-desktop": []"#, "quiets-desktop: expected true, false or a list of phase names"),
        (#", "quiets-desktop": "yes""#, "quiets-desktop"),
    ])
    func aWrongQuietRuleIsRefusedByName(extra: String, fragment: String) {
        do {
            _ = try kind(extra)
            Issue.record("accepted \(extra)")
        } catch {
            #expect(error.message.contains(fragment), "\(error.message)")
        }
    }

    @Test func aQuietRuleByPhaseFollowsThePhase() throws {
        var registry = ActivityRegistry(catalog: KindCatalog(kinds: [try kind(#", "quiets-desktop": ["work"]"#)]), idSeed: 1)
        let (id, _) = try registry.start(kind: "k", attributes: [:], state: [:], now: t0)
        let rule = try #require(registry.catalog.kind(named: "k")?.quietRule)
        #expect(rule.quiets(try #require(registry.activity(id.rawValue))))
        _ = registry.tick(now: t0 + 21 * 60, timeZoneOffset: 0)
        #expect(!rule.quiets(try #require(registry.activity(id.rawValue))), "the rest phase is not quiet")
    }

    @Test func resumingAfterTimeAwayKeepsOrDiscardsIt() throws {
        for (keep, position) in [(true, 900.0), (false, 120.0)] {
            var registry = ActivityRegistry(catalog: shippedCatalog, idSeed: 1)
            let (id, _) = try registry.start(kind: "focus", attributes: ["minutes": .int(25)], state: [:], now: t0)
            _ = try registry.pause(id: id.rawValue, now: t0 + 300)
            let (_, away) = try registry.resumeAfterAway(id: id.rawValue, idleSince: t0 + 120, keepAwayTime: keep, now: t0 + 900)
            let timer = try #require(registry.activity(id.rawValue)?.timer)
            #expect(timer.position(at: t0 + 900) == position, "keep \(keep)")
            #expect(away == (keep ? 0 : 780))
        }
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("two\nlines", "\"two\nlines\""),
        ("crlf\r\nend", "\"crlf\r\nend\""),
        (" padded", "\" padded\""),
        ("\"\u{301}", "\"\"\"\u{301}\""),
        ("", ""),
    ])
    func csvFieldsAreQuotedAsRFC4180Says(text: String, expected: String) {
        #expect(CSVText.field(text) == expected)
    }

    @Test func aCSVTableEndsEveryRecordWithCRLF() {
        #expect(CSVText.table(header: ["a", "b"], rows: [["1", "x,y"]]) == "a,b\r\n1,\"x,y\"\r\n")
    }

    func entry(_ task: String?, title: String, endedAt: Double, focused: Double, away: Double?,
               reason: EndReason = .completed) -> HistoryEntry {
        var entry = HistoryEntry(id: "e", kind: "focus", reason: reason, startedAt: endedAt - focused,
                                 endedAt: endedAt, activeSeconds: focused)
        entry.task = task
        entry.title = title
        entry.awaySeconds = away
        return entry
    }

    @Test func historyGroupsByLocalDayAndByTask() {
        let day = 86_400.0
        let entries = [
            entry("Write", title: "Pomodoro · Write", endedAt: t0 - 600, focused: 1500, away: 120),
            entry("Write", title: "Pomodoro · Write", endedAt: t0 - day, focused: 1500, away: nil),
            entry(nil, title: "Deep Work", endedAt: t0 - 300, focused: 2700, away: 0, reason: .cancelled),
        ]
        let byDay = HistoryBreakdown.of(entries, by: .day) { _ in 0 }
        #expect(byDay.rows.map(\.key) == [HistoryBreakdown.localDate(t0, offset: 0), HistoryBreakdown.localDate(t0 - day, offset: 0)])
        #expect(byDay.rows.first?.sessions == 2 && byDay.rows.first?.completed == 1)
        #expect(byDay.rows.first?.focusedSeconds == 4200 && byDay.rows.first?.awaySeconds == 120)
        let byTask = HistoryBreakdown.of(entries, by: .task) { _ in 0 }
        #expect(byTask.rows.map(\.key) == ["Write", "Deep Work"], "the task, else the title; most focused first")
        #expect(byTask.rows.first?.focusedSeconds == 3000)
        #expect(HistoryBreakdown.localDate(1_700_000_000, offset: 0) == "2023-11-14")
        #expect(HistoryBreakdown.localDate(1_700_000_000, offset: 3 * 3600) == "2023-11-15")
        #expect(HistoryBreakdown.localDate(1e300, offset: 0) == "invalid time")
        #expect(HistoryBreakdown.of([entry("x", title: "x", endedAt: 1e300, focused: .nan, away: .infinity)], by: .day) { _ in 0 }
                .rows.first?.focusedSeconds == 0, "a damaged entry counts nothing and traps nothing")
    }
}
