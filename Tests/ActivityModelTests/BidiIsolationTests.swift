import Testing
@testable import ActivityModel

/// Issue 28, row 7: a right-to-left override (U+202E) in a segment label reversed the rest of
/// `SegmentText` and the card's body. Client text set among the daemon's own text is isolated
/// (FSI U+2068 … PDI U+2069) when it holds right-to-left letters or bidi controls, so nothing in
/// it can leak out; plain text renders exactly as before.
@Suite(.timeLimit(.minutes(2))) struct BidiIsolationTests {
    static let fsi = "\u{2068}", pdi = "\u{2069}"

    @Test(arguments: [
        ("Write", "Write"),
        ("Café 45% ✓", "Café 45% ✓"),
        ("\u{202E}ok", "\u{2068}\u{202E}ok\u{2069}"),
        ("שלום", "\u{2068}שלום\u{2069}"),
        ("x\u{2069}\u{202E}y", "\u{2068}x\u{202E}y\u{2069}"),         // a stray PDI cannot close the isolate early
        ("a\u{2067}b", "\u{2068}a\u{2067}b\u{2069}\u{2069}"),           // nor an open one keep it open
        ("\u{2068}שלום\u{2069}", "\u{2068}שלום\u{2069}"),               // already isolated: unchanged
        ("ab\u{2066}مرحبا\u{2069}", "ab\u{2066}مرحبا\u{2069}"),         // RTL only inside a balanced isolate
        ("שלום\n\u{202E}x", "\u{2068}שלום\u{2069}\n\u{2068}\u{202E}x\u{2069}"),  // each paragraph on its own
        ("a\u{200F}", "\u{2068}a\u{200F}\u{2069}"),                     // a right-to-left mark
    ])
    func clientTextIsIsolatedOnlyWhenItCouldMoveTheTextAroundIt(text: String, expected: String) {
        #expect(BidiIsolation.isolated(text) == expected)
    }

    /// The listed controls are exactly the standard library's `isBidiControl`, over every scalar.
    @Test func theListedBidiControlsAreUnicodesBidiControlProperty() {
        var disagreeing: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if BidiIsolation.isBidiControl(scalar) != scalar.properties.isBidiControl { disagreeing.append(value) }
        }
        #expect(disagreeing.isEmpty)
    }

    @Test func aRightToLeftOverrideInASegmentLabelStaysInsideTheLabel() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:],
                                         state: ["title": .string("Deploy"), "segments": .string("\u{202E}ok:0.5|B:0.5"), "progress": .double(0.25)],
                                         now: t0)
        let rendered = try registry.render(id: id.rawValue, now: t0, timeZoneOffset: 0)
        #expect(rendered.segments?.summary == "\u{2068}\u{202E}ok\u{2069} · then B", "\(rendered.segments?.summary.debugDescription ?? "")")
        #expect(rendered.segments?.segments.first?.label == "\u{202E}ok", "the label itself stays as the client sent it")
    }

    @Test func aTaskWithAnOverrideDoesNotReverseTheTitleAroundIt() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "focus", attributes: ["session-type": .string("Pomodoro")],
                                         state: ["task": .string("\u{202E}Write")], now: t0)
        let rendered = try registry.render(id: id.rawValue, now: t0, timeZoneOffset: 0)
        #expect(rendered.title == "Pomodoro · \u{2068}\u{202E}Write\u{2069}")
    }

    @Test func aHebrewTitleIsTheTitleAsSentAndIsolatedInTheCompactText() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("שלום"), "progress": .double(0.45)], now: t0)
        let rendered = try registry.render(id: id.rawValue, now: t0, timeZoneOffset: 0)
        #expect(rendered.title == "שלום", "a title that is all client text is not wrapped")
        #expect(registry.compactText(now: t0, timeZoneOffset: 0) == "\u{2068}שלום\u{2069} 45%")
    }

    @Test func aPausedCardsBodyKeepsItsWordsInOrder() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: ["timer-start": .double(t0), "timer-end": .double(t0 + 600)],
                                         state: ["title": .string("Build"), "body": .string("\u{202E}abc")], now: t0)
        _ = try registry.pause(id: id.rawValue, now: t0 + 60)
        let body = try registry.render(id: id.rawValue, now: t0 + 60, timeZoneOffset: 0).body
        #expect(body == "Paused · \u{2068}\u{202E}abc\u{2069}\n9:00 left", "\(body.debugDescription)")
    }

    @Test func plainTextRendersExactlyAsBefore() throws {
        var registry = shippedRegistry()
        let (focus, _) = try registry.start(kind: "focus", attributes: ["session-type": .string("Pomodoro")],
                                            state: ["task": .string("Write")], now: t0)
        let (build, _) = try registry.start(kind: "generic", attributes: [:],
                                            state: ["title": .string("Build"), "segments": .string("Fetch|Build"), "progress": .double(0.25)], now: t0)
        #expect(try registry.render(id: focus.rawValue, now: t0, timeZoneOffset: 0).title == "Pomodoro · Write")
        #expect(try registry.render(id: build.rawValue, now: t0, timeZoneOffset: 0).segments?.summary == "Fetch · then Build")
        #expect(!registry.compactText(now: t0, timeZoneOffset: 0).unicodeScalars.contains { $0 == "\u{2068}" || $0 == "\u{2069}" })
    }
}
