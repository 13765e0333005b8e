import Foundation
import Testing
@testable import ActivityModel

/// Issue 28, row 2: a title holding a line or paragraph separator (U+2028, U+2029, U+0085, and
/// the rest Swift's line splitting honours) stays on its one line of `history.jsonl`, a file an
/// older daemon wrote with them raw is read whole, and a line that cannot be read is counted.
@Suite(.timeLimit(.minutes(2))) struct HistoryLineSeparatorTests {
    static let separated = ["\u{2028}ls", "a\u{2029}b", "c\u{85}d", "v\u{0B}t", "f\u{0C}f", "cr\rx", "lf\nx", "crlf\r\nx"]

    func entry(title: String) -> HistoryEntry {
        var entry = HistoryEntry(id: "s", kind: "generic", reason: .ended, startedAt: t0, endedAt: t0 + 60, activeSeconds: 60,
                                 attributes: ["note\u{2028}": .string(title)])
        entry.title = title
        entry.task = title
        return entry
    }

    @Test(arguments: separated)
    func anEntryWithASeparatorInItsTitleIsOneLineAndReadsBack(title: String) throws {
        let line = try entry(title: title).jsonLine()
        #expect(!line.contains { $0.isNewline }, "one line by any reader's rule: \(line.debugDescription)")
        #expect(!line.unicodeScalars.contains { ["\u{85}", "\u{2028}", "\u{2029}"].contains($0) })
        let read = HistoryLines(Data((line + "\n" + line + "\n").utf8))
        #expect(read.entries == [entry(title: title), entry(title: title)])
        #expect(read.unreadableLines == 0)
    }

    @Test func aHistoryAnOlderDaemonWroteWithRawSeparatorsIsReadWhole() {
        let raw = #"{"active-seconds":60,"attributes":{},"ended-at":1699963260,"id":"s","kind":"generic","reason":"ended","#
            + "\"started-at\":1699963200,\"title\":\"\u{2028}ls \u{2029} \u{85}\"}"
        let read = HistoryLines(Data((raw + "\n" + raw).utf8))
        #expect(read.entries.map(\.title) == ["\u{2028}ls \u{2029} \u{85}", "\u{2028}ls \u{2029} \u{85}"])
        #expect(read.unreadableLines == 0)
    }

    @Test func linesThatCannotBeReadAreCountedAndEmptyOnesAreNot() throws {
        let good = try entry(title: "ok").jsonLine()
        var bytes = Array((good + "\nnot json\n\n{\"id\":\"half\"}\n").utf8)
        bytes += [0xFF, 0xFE, 0x0A]  // not UTF-8
        bytes += Array((good + "\n").utf8)
        let read = HistoryLines(Data(bytes))
        #expect(read.entries.count == 2)
        #expect(read.unreadableLines == 3)
        #expect(HistoryLines.unreadableNote(1) == "1 history line could not be read")
        #expect(HistoryLines.unreadableNote(3) == "3 history lines could not be read")
    }
}
