/// A key combination in the one spelling `liveactivity bind` accepts (`Super+Shift+F`), so a
/// user learns one syntax; `HotkeyDesktop` writes it as each desktop spells it.
struct KeyChord: Equatable, Sendable {
    /// A modifier, in the order every desktop spelling lists them.
    enum Modifier: Int, CaseIterable, Sendable {
        case superKey, control, alt, shift

        var portable: String { ["Super", "Ctrl", "Alt", "Shift"][rawValue] }
        static func named(_ word: String) -> Modifier? {
            switch word.lowercased() {
            case "super", "meta", "win", "mod4", "logo": .superKey
            case "ctrl", "control", "primary": .control
            case "alt", "mod1": .alt
            case "shift": .shift
            default: nil
            }
        }
    }

    let modifiers: [Modifier]
    let key: KeyName

    /// Parses `Super+Shift+F` (case-insensitive, any modifier order, aliases such as Meta and
    /// Control); a `.usage` error naming the word it does not know.
    init(_ text: String) throws(CLIError) {
        let words = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard let last = words.last, !last.isEmpty, !words.dropLast().contains(where: \.isEmpty) else {
            throw .usage("bind: \"\(text)\" is not a key combination; write it like Super+Shift+F")
        }
        var modifiers: Set<Modifier> = []
        for word in words.dropLast() {
            guard let modifier = Modifier.named(word) else {
                throw .usage("bind: unknown modifier \"\(word)\" in \(text); use Super, Ctrl, Alt or Shift")
            }
            modifiers.insert(modifier)
        }
        guard let key = KeyName(last) else {
            throw .usage("bind: unknown key name \"\(last)\" in \(text); use a letter, a digit, F1-F24 or one of "
                         + KeyName.namedKeys.map(\.portable).joined(separator: ", "))
        }
        self.modifiers = Modifier.allCases.filter(modifiers.contains)
        self.key = key
    }

    /// The portable spelling, normalised: `Super+Shift+F`.
    var portable: String { (modifiers.map(\.portable) + [key.portable]).joined(separator: "+") }

    /// A default binding name from the keys: `super-shift-f`.
    var defaultName: String { portable.lowercased().replacingAll("+", with: "-") }

    /// GNOME's accelerator (`gtk_accelerator_parse`): `<Super><Shift>f`.
    var gnome: String {
        modifiers.map { "<\(["Super", "Control", "Alt", "Shift"][$0.rawValue])>" }.joined() + key.keysym
    }

    /// Qt's key sequence text, as kglobalaccel and `X-KDE-Shortcuts` read it: `Meta+Shift+F`.
    var kde: String { (modifiers.map { ["Meta", "Ctrl", "Alt", "Shift"][$0.rawValue] } + [key.qtName]).joined(separator: "+") }

    /// Qt's combined key code (`QKeyCombination::toCombined`), as kglobalaccel takes it over D-Bus.
    var qtCode: Int32 {
        let flags: [Int32] = [0x1000_0000, 0x0400_0000, 0x0800_0000, 0x0200_0000]
        return modifiers.reduce(key.qtCode) { $0 | flags[$1.rawValue] }
    }

    /// A sway or i3 `bindsym` key, without `$mod`: `Mod4+Shift+f`.
    var swayOrI3: String {
        (modifiers.map { ["Mod4", "Control", "Mod1", "Shift"][$0.rawValue] } + [key.keysym]).joined(separator: "+")
    }

    /// Hyprland's `bind =` modifiers and key: `SUPER SHIFT, F`.
    var hyprland: String {
        modifiers.map { ["SUPER", "CTRL", "ALT", "SHIFT"][$0.rawValue] }.joined(separator: " ") + ", "
            + (key.keysym.count == 1 ? key.keysym.uppercased() : key.keysym)
    }
}
