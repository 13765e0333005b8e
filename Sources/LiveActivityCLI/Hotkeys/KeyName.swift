/// The key of a `KeyChord` (not a modifier): a letter, a digit, F1–F24 or one of a few named
/// keys, with its X keysym name (GNOME, sway, i3, Hyprland) and its Qt name and code (KDE).
struct KeyName: Equatable, Sendable {
    let portable: String
    let keysym: String
    let qtName: String
    let qtCode: Int32

    /// The named keys beside letters, digits and function keys; the first spelling is the portable one.
    static let namedKeys: [(portable: String, aliases: [String], keysym: String, qtName: String, qtCode: Int32)] = [
        ("Space", [], "space", "Space", 0x20),
        ("Return", ["Enter"], "Return", "Return", 0x0100_0004),
        ("Tab", [], "Tab", "Tab", 0x0100_0001),
        ("Escape", ["Esc"], "Escape", "Esc", 0x0100_0000),
        ("Backspace", [], "BackSpace", "Backspace", 0x0100_0003),
        ("Delete", ["Del"], "Delete", "Del", 0x0100_0007),
        ("Insert", ["Ins"], "Insert", "Ins", 0x0100_0006),
        ("Home", [], "Home", "Home", 0x0100_0010),
        ("End", [], "End", "End", 0x0100_0011),
        ("Left", [], "Left", "Left", 0x0100_0012),
        ("Up", [], "Up", "Up", 0x0100_0013),
        ("Right", [], "Right", "Right", 0x0100_0014),
        ("Down", [], "Down", "Down", 0x0100_0015),
        ("PageUp", ["PgUp"], "Page_Up", "PgUp", 0x0100_0016),
        ("PageDown", ["PgDown"], "Page_Down", "PgDown", 0x0100_0017),
        ("Print", [], "Print", "Print", 0x0100_0009),
        ("Pause", [], "Pause", "Pause", 0x0100_0008),
    ]

    init(portable: String, keysym: String, qtName: String, qtCode: Int32) {
        self.portable = portable
        self.keysym = keysym
        self.qtName = qtName
        self.qtCode = qtCode
    }

    /// The key named `word` (case-insensitive), or nil.
    init?(_ word: String) {
        let lower = word.lowercased()
        let scalars = Array(lower.unicodeScalars)
        if scalars.count == 1, let scalar = scalars.first, ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
            let upper = lower.uppercased()
            self.init(portable: upper, keysym: lower, qtName: upper, qtCode: Int32(upper.unicodeScalars.first?.value ?? 0))
            return
        }
        if lower.hasPrefix("f"), let number = Int32(lower.dropFirst()), (1...24).contains(number),
           lower.dropFirst().first != "0" {
            self.init(portable: "F\(number)", keysym: "F\(number)", qtName: "F\(number)", qtCode: 0x0100_0030 + number - 1)
            return
        }
        guard let named = Self.namedKeys.first(where: { ([$0.portable] + $0.aliases).contains { $0.lowercased() == lower } }) else {
            return nil
        }
        self.init(portable: named.portable, keysym: named.keysym, qtName: named.qtName, qtCode: named.qtCode)
    }
}
