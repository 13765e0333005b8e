import Testing
@testable import ActivityModel

/// Template placeholders and formats, as the card shows them.
@Suite(.timeLimit(.minutes(2))) struct RenderTests {
    /// A probe timer of 2 h started at 12:00:00 UTC, read at 1:05:09 elapsed, one hour east of UTC.
    static let formatCases: [(template: String, showSeconds: Bool, expected: String)] = [
        ("{elapsed|m:ss}", true, "65:09"),
        ("{elapsed|hh:mm:ss}", true, "01:05:09"),
        ("{elapsed|h:mm:ss}", true, "1:05:09"),
        ("{elapsed|h:mm}", true, "1:05"),
        ("{elapsed|hh:mm}", true, "01:05"),
        ("{elapsed}", true, "1:05:09"),
        ("{elapsed|duration}", true, "1h 5m"),
        ("{remaining|m:ss}", true, "54:51"),
        ("{remaining|duration}", true, "55m"),
        ("{timer}", true, "54:51"),
        ("{goal}", true, "2h"),
        ("{end|clock}", true, "15:00"),
        ("{end}", true, "15:00"),
        ("{start}", true, "13:00"),
        ("{now}", true, "14:05"),
        ("{attr.length|duration}", true, "2h"),
        ("{attr.length}", true, "7200"),
        ("{kind}", true, "Probe"),
        ("{status}", true, "active"),
        ("{reason}", true, ""),
        ("{state.missing}", true, ""),
        ("[x {state.missing}]y", true, "y"),
        ("[{elapsed|h:mm} in]", true, "1:05 in"),
        ("{state.missing ?? 'fallback'}", true, "fallback"),
        ("{state.missing ?? elapsed|h:mm ?? 'never'}", true, "1:05"),
        ("\\[literal\\] \\{x\\}", true, "[literal] {x}"),
        ("{elapsed|m:ss}", false, "1h 5m"),
        ("{elapsed}", false, "1h 5m"),
        ("{elapsed|hh:mm:ss}", false, "01:05"),
        ("{remaining|h:mm:ss}", false, "0:55"),
        ("{elapsed|h:mm}", false, "1:05"),
    ]

    @Test(arguments: formatCases)
    func formats(template: String, showSeconds: Bool, expected: String) throws {
        let (registry, id) = try probeRegistry(body: template)
        let card = try registry.render(id: id.rawValue, now: t0 + 3909, timeZoneOffset: 3600,
                                       style: RenderStyle(showSeconds: showSeconds))
        #expect(card.body == expected)
    }

    @Test(arguments: [(65.0, "1:05"), (0, "0:00"), (3599.9, "59:59"), (36_000, "600:00")])
    func minutesSecondsOfElapsed(elapsed: Double, expected: String) throws {
        let (registry, id) = try probeRegistry(body: "{elapsed|m:ss}", length: 100_000)
        #expect(try registry.render(id: id.rawValue, now: t0 + elapsed, timeZoneOffset: 0).body == expected)
    }

    @Test(arguments: [(3909.0, "54%"), (0, "0%"), (7200, "100%"), (9000, "100%")])
    func percentOfTimerProgress(elapsed: Double, expected: String) throws {
        let (registry, id) = try probeRegistry(body: "{progress}", progress: ["timer"])
        let card = try registry.render(id: id.rawValue, now: t0 + elapsed, timeZoneOffset: 0)
        #expect(card.body == expected && card.progressPercent == Int(expected.dropLast()))
    }

    @Test func stateValuesAndNumberFormats() throws {
        var (registry, id) = try probeRegistry(body: "{state.label}: {state.label|percent}")
        _ = try registry.update(id: id.rawValue, state: ["label": .string("x")], now: t0)
        #expect(try registry.render(id: id.rawValue, now: t0, timeZoneOffset: 0).body == "x: x")
    }

    @Test func timerStartingInTheFutureShowsZeroUntilItStarts() throws {
        let (registry, id) = try probeRegistry(body: "{elapsed|m:ss} / {remaining|m:ss}", length: 600, start: t0 + 100)
        #expect(try registry.render(id: id.rawValue, now: t0 + 50, timeZoneOffset: 0).body == "0:00 / 10:00")
        #expect(registry.nextDeadline(after: t0 + 50, timeZoneOffset: 0) == t0 + 101)
    }

    @Test func compactTextLeadsWithTheMostRelevantAndListsOthersMinimal() throws {
        var registry = shippedRegistry()
        #expect(registry.compactText(now: t0, timeZoneOffset: 0) == "")
        let (fast, _) = try registry.start(kind: "fasting", attributes: [:], state: [:], now: t0 - 100)
        _ = try registry.start(kind: "focus", attributes: ["minutes": .int(15)], state: [:], options: .init(relevance: 1), now: t0)
        #expect(registry.compactText(now: t0 + 146, timeZoneOffset: 0) == "⏱ 12:34 · 🍽")
        #expect(registry.compactText(now: t0 + 146, timeZoneOffset: 0, style: RenderStyle(showSeconds: false)) == "⏱ 13m · 🍽")
        _ = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("Build"), "progress": .double(0.3)], now: t0 + 1)
        #expect(registry.compactText(now: t0 + 146, timeZoneOffset: 0) == "⏱ 12:34 · 30% · 🍽")
        _ = try registry.end(id: fast.rawValue, now: t0 + 150)
        #expect(registry.compactText(now: t0 + 150, timeZoneOffset: 0) == "⏱ 12:30 · 30%")
    }

    @Test(arguments: [
        ("{elapsed|mm:s}", "unknown format \"mm:s\""),
        ("{bogus}", "unknown value \"bogus\""),
        ("{elapsed", "\"{\" is never closed by \"}\""),
        ("[open", "\"[\" is never closed by \"]\""),
        ("close]", "unmatched \"]\""),
        ("{state.nope}", "\"nope\" is not a declared state key"),
        ("{phase}", "{phase} needs phases"),
    ])
    func templateMistakesAreReportedWithTheKey(template: String, fragment: String) {
        do {
            _ = try probeKind(body: template)
            Issue.record("\(template) was accepted")
        } catch let problem as KindProblem {
            #expect(problem.file == "probe.json")
            #expect(problem.message.hasPrefix("templates.body: "))
            #expect(problem.message.contains(fragment))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
