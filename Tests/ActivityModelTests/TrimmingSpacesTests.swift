@testable import ActivityModel
import Testing

/// Every rendered text is trimmed each tick, and `trimmingSpaces` returns a text whose first
/// and last bytes are no space without walking its characters (issue 29). The shortcut must
/// give what walking the characters gives, combining marks and CR LF included.
@Suite(.timeLimit(.minutes(1))) struct TrimmingSpacesTests {
    /// The trim by characters, as it was before the shortcut.
    private static func byCharacters(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
              let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(text[first...last])
    }

    @Test(arguments: ["", " ", "\n\t ", "24:57", "⏱ 24:57", "  Pomodoro ", "\tDeep Work\n", "a\r\n", "\r\na",
                      " \u{301}x", "x \u{301}", "\u{2068}שלום\u{2069} ", "a  b", "é", " é\n"])
    func theShortcutTrimsAsTheCharactersDo(_ text: String) {
        #expect(text.trimmingSpaces == Self.byCharacters(text))
    }
}
