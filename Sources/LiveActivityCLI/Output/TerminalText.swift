import ActivityModel

/// Client text made harmless for a terminal. Titles, bodies and state values come from any
/// app (or push sender); written raw, an ESC sequence in them could move the cursor, retitle
/// the window or hide other output. On a terminal the CLI shows every control character except
/// newline and tab as a visible `\u{1B}`; into a pipe or file, text goes out as it is.
public enum TerminalText {
    /// `text` with control characters (C0 but newline and tab, DEL, C1) written as `\u{XX}`.
    public static func neutralised(_ text: String) -> String {
        Quoted.visible(text, keeping: ["\n", "\t"])
    }
}
