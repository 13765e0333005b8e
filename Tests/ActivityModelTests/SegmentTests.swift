import Testing
@testable import ActivityModel

/// Segments and points: from a kind's phases (a 16:8 fast), from a client's state keys (a build
/// in 5 steps), refused when malformed, and drawn as a text bar with visible boundaries.
@Suite(.timeLimit(.minutes(2))) struct SegmentTests {
    private func fasting(_ protocolName: String, at elapsed: Double) throws -> RenderedActivity {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "fasting", attributes: ["protocol": .string(protocolName)], state: [:], now: t0)
        return try registry.render(id: id.rawValue, now: t0 + elapsed, timeZoneOffset: 0)
    }

    @Test(arguments: [("16:8", 16.0, 8.0), ("18:6", 18, 6), ("20:4", 20, 4), ("OMAD", 23, 1)])
    func fastingProtocolsAreAFastThenAnEatingWindow(protocolName: String, fastHours: Double, eatHours: Double) throws {
        let segmented = try #require(try fasting(protocolName, at: 3600).segments)
        #expect(segmented.segments.map(\.label) == ["Fasting", "Eating window"])
        #expect(abs(segmented.segments[0].share - fastHours / 24) < 1e-9)
        #expect(abs(segmented.segments[1].share - eatHours / 24) < 1e-9)
        #expect(segmented.segments.map(\.state) == [.current, .upcoming])
        #expect(segmented.points == [ActivityPoint(position: fastHours / 24, label: "Eating window")])
    }

    @Test func aFastMovesThroughItsSegmentsAsTimePasses() throws {
        let early = try #require(try fasting("16:8", at: 12 * 3600 + 34 * 60 + 56).segments)
        #expect(early.position == 0.52)  // 12.58 h of 24 h, at the whole percent
        #expect(early.segments[0].state == .current && early.segments[1].state == .upcoming)
        #expect(abs(early.segments[0].fill - 0.52 * 24 / 16) < 1e-9)
        #expect(early.summary == "Fasting 12h 34m of 16h · then Eating window 8h")
        let eating = try #require(try fasting("16:8", at: 17 * 3600).segments)
        #expect(eating.segments.map(\.state) == [.done, .current])
        #expect(eating.segments[0].fill == 1)
        #expect(eating.summary == "Eating window 1h of 8h")
        let over = try #require(try fasting("16:8", at: 25 * 3600).segments)
        #expect(over.segments.map(\.state) == [.done, .done] && over.position == 1)
    }

    @Test func theNextChangeIsTheNextPercentOfTheBar() throws {
        var registry = shippedRegistry()
        _ = try registry.start(kind: "fasting", attributes: ["protocol": .string("16:8")], state: [:], now: t0)
        let before = try #require(registry.live.first.flatMap { registry.render($0, now: t0 + 3600, timeZoneOffset: 0).segments })
        // 1% of a 24 h bar is 864 s: the bar moves at 2592 s, 3456 s, 4320 s …
        let deadline = try #require(registry.nextDeadline(after: t0 + 3600, timeZoneOffset: 0))
        #expect(deadline <= t0 + 3660)
        let after = try #require(registry.live.first.flatMap { registry.render($0, now: t0 + 4320, timeZoneOffset: 0).segments })
        #expect(before.position == 0.04 && after.position == 0.05)
    }

    @Test func aFocusSessionIsOneSegment() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "focus", attributes: ["session-type": .string("Pomodoro")], state: [:], now: t0)
        let segmented = try #require(try registry.render(id: id.rawValue, now: t0 + 300, timeZoneOffset: 0).segments)
        #expect(segmented.segments == [ActivitySegment(label: "Focus", share: 1, state: .current, fill: 0.2)])
        #expect(segmented.summary == "Focus 5m of 25m")
    }

    @Test func aBuildInFiveStepsShowsStepTwo() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:],
                                         state: ["title": .string("Build"), "steps": .int(5), "step": .int(2)], now: t0)
        let segmented = try #require(try registry.render(id: id.rawValue, now: t0, timeZoneOffset: 0).segments)
        #expect(segmented.segments.map(\.state) == [.done, .current, .upcoming, .upcoming, .upcoming])
        #expect(segmented.segments.map(\.label) == ["Step 1", "Step 2", "Step 3", "Step 4", "Step 5"])
        #expect(segmented.position == 0.2 && segmented.summary == "Step 2 · step 2 of 5 · then Step 3")
        #expect(SegmentBarText.bar(segmented, cells: 10) == "▰▰│▱▱│▱▱│▱▱│▱▱")
        _ = try registry.update(id: id.rawValue, state: ["step": .int(4)], now: t0 + 1)
        let later = try #require(try registry.render(id: id.rawValue, now: t0 + 1, timeZoneOffset: 0).segments)
        #expect(later.segments.map(\.state) == [.done, .done, .done, .current, .upcoming])
    }

    @Test func labelledSegmentsFollowTheProgress() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:], state: [
            "segments": .string("Fetch:0.2|Build:0.5|Test:0.3"), "progress": .double(0.45), "points": .string("0.9:Review|0.5"),
        ], now: t0)
        let segmented = try #require(try registry.render(id: id.rawValue, now: t0, timeZoneOffset: 0).segments)
        #expect(segmented.segments.map(\.state) == [.done, .current, .upcoming])
        #expect(abs(segmented.segments[1].fill - 0.5) < 1e-9)
        #expect(segmented.points == [ActivityPoint(position: 0.5, label: ""), ActivityPoint(position: 0.9, label: "Review")])
        #expect(segmented.summary == "Build · then Test")
        #expect(SegmentBarText.bar(segmented, cells: 10) == "▰▰│▰▰▱▱▱│▱▱▱")
    }

    @Test func anActivityWithoutPhasesOrSegmentsHasNone() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:], state: ["progress": .double(0.5)], now: t0)
        #expect(try registry.render(id: id.rawValue, now: t0, timeZoneOffset: 0).segments == nil)
    }

    static let refused: [([String: Value], String)] = [
        (["steps": .int(13)], "state key \"steps\": expected an integer from 1 to 12, got integer 13"),
        (["steps": .int(3), "step": .int(4)], "state key \"step\": expected a step from 1 to 3, got integer 4"),
        (["step": .int(1)], "state key \"step\": needs segments; give \"steps\" (a count) or \"segments\" (labels) too"),
        (["segments": .string("A:0.5|B:0.4")], "state key \"segments\": the shares sum to 0.9; expected 1"),
        (["segments": .string("A:0.5|B")], "state key \"segments\": give a share to every segment or to none (1 of 2 have one), e.g. \"Fetch:0.2|Build:0.8\""),
        (["segments": .string("A|")], "state key \"segments\": segment 2: the label is empty; expected text such as \"Build\""),
        (["segments": .string("A:nan|B:0.5")], "state key \"segments\": segment 1 \"A:nan\": expected a share above 0 and at most 1, got nan"),
        (["segments": .string(String(repeating: "a|", count: 12) + "a")], "state key \"segments\": 13 segments; expected at most 12"),
        (["segments": .string(String(repeating: "x", count: 65))], "state key \"segments\": segment 1: the label \"\(String(repeating: "x", count: 65))\" is longer than 64 characters"),
        (["steps": .int(2), "segments": .string("A|B")], "state keys \"segments\" and \"steps\" both given; give only one of them"),
        // Issue 28, row 7: labels that show nothing, and 64 characters that carry thousands of code points.
        (["segments": .string("\u{200B}\u{200B}:0.5|B:0.5")], "state key \"segments\": segment 1: the label holds no visible character (U+200B U+200B); expected text such as \"Build\""),
        (["segments": .string("\u{202E}\u{2066}\u{FEFF}|B")], "state key \"segments\": segment 1: the label holds no visible character (U+202E U+2066 U+FEFF); expected text such as \"Build\""),
        (["segments": .string("A|\u{3164}\u{00A0}\u{2800}")], "state key \"segments\": segment 2: the label holds no visible character (U+3164 U+00A0 U+2800); expected text such as \"Build\""),
        (["segments": .string("\u{301}\u{301}|B")], "state key \"segments\": segment 1: the label holds no visible character (U+0301 U+0301); expected text such as \"Build\""),
        (["segments": .string("e" + String(repeating: "\u{301}", count: 300) + "|B")], "state key \"segments\": segment 1: the label holds 301 code points (1 character); expected at most 256"),
        (["steps": .int(2), "points": .string("0.5:\u{200B}")], "state key \"points\": point 1: the label holds no visible character (U+200B); expected text such as \"Build\""),
        (["steps": .int(2), "points": .string("1.5")], "state key \"points\": point 1 \"1.5\": expected a position from 0 to 1, then an optional \":label\", e.g. \"0.5:Half way\""),
        (["steps": .int(2), "points": .string(Array(repeating: "0.1", count: 17).joined(separator: "|"))], "state key \"points\": 17 points; expected at most 16"),
    ]

    @Test(arguments: refused)
    func badSegmentsAreRefusedAndChangeNothing(state: [String: Value], message: String) throws {
        var registry = shippedRegistry()
        #expect(thrownError { try registry.start(kind: "generic", attributes: [:], state: state, now: t0) } == .invalidArgument(message))
        #expect(registry.activities.isEmpty)
        let (id, _) = try registry.start(kind: "generic", attributes: [:], state: ["steps": .int(12), "step": .int(3)], now: t0)
        let before = try registry.render(id: id.rawValue, now: t0, timeZoneOffset: 0)
        #expect(thrownError { try registry.update(id: id.rawValue, state: ["steps": .int(2)], now: t0) }
                == .invalidArgument("state key \"step\": expected a step from 1 to 2, got integer 3"))
        #expect(try registry.render(id: id.rawValue, now: t0, timeZoneOffset: 0) == before)
    }

    /// Labels in any script, with emoji and combining marks, are text; the limits count what a
    /// reader sees (grapheme clusters), so 64 flags or 64 accented letters still pass.
    @Test func labelsInAnyScriptPass() throws {
        var registry = shippedRegistry()
        let flags = String(repeating: "🇫🇷", count: 64), accented = String(repeating: "e\u{301}", count: 64)
        for label in ["שלב", "مرحلة", "👩‍💻 Code", "Ω\u{200B}", flags, accented] {
            #expect(throws: Never.self) { _ = try registry.start(kind: "generic", attributes: [:], state: ["segments": .string(label + "|B")], now: t0) }
        }
    }

    @Test func aSavedRecordWithBadSegmentsIsSetAside() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:], state: ["steps": .int(3)], now: t0)
        var activity = try #require(registry.activities.first { $0.id == id })
        #expect(activity.recordProblem == nil)
        activity.state["step"] = .int(9)
        #expect(activity.recordProblem == "state key \"step\": expected a step from 1 to 3, got integer 9")
    }

    static let cellCases: [(shares: [Double], cells: Int, expected: [Int])] = [
        ([0.5, 0.5], 10, [5, 5]), ([2.0 / 3, 1.0 / 3], 20, [13, 7]), ([0.98, 0.01, 0.01], 10, [8, 1, 1]),
        ([0.25, 0.25, 0.25, 0.25], 2, [1, 1, 1, 1]),
    ]

    @Test(arguments: cellCases)
    func cellsFollowTheSharesWithAtLeastOneEach(shares: [Double], cells: Int, expected: [Int]) {
        #expect(SegmentBarText.cellCounts(shares: shares, cells: cells) == expected)
    }

    @Test func aFastDrawsItsBoundaryInText() throws {
        let segmented = try #require(try fasting("16:8", at: 12 * 3600).segments)
        // 12 h of 24 h: half the bar, three quarters of the 13 cells of the fast.
        #expect(SegmentBarText.bar(segmented) == "▰▰▰▰▰▰▰▰▰▱▱▱▱│▱▱▱▱▱▱▱")
    }

    /// The CLI draws segments read from the bus: NaN, infinite, negative or huge shares and
    /// fills draw as empty cells (huge shares as the whole) instead of trapping or repeating a negative count.
    @Test func unusableSharesAndFillsDrawWithoutTrapping() {
        let odd = SegmentedProgress(segments: [
            ActivitySegment(label: "A", share: .nan, state: .done, fill: .infinity),
            ActivitySegment(label: "B", share: 1e300, state: .current, fill: -5),
            ActivitySegment(label: "C", share: -.infinity, state: .upcoming, fill: .nan),
        ], points: [], position: 0, summary: "")
        #expect(SegmentBarText.bar(odd, cells: 4) == "▱│▱▱│▱")
    }
}
