import Foundation

/// One binding as `bind` makes it: a name (the handle `unbind` and `bindings` use), the keys
/// and the command's words. The checks here run before anything is written, so bad input
/// changes nothing.
struct HotkeyBinding: Equatable, Sendable {
    let name: String
    let chord: KeyChord
    let command: [String]

    init(name: String?, keys: String, command: [String]) throws(CLIError) {
        let chord = try KeyChord(keys)
        let name = name ?? chord.defaultName
        guard Self.isValidName(name) else {
            throw .usage("bind: the name \"\(name)\" must be 1-64 of a-z, 0-9 and -")
        }
        guard let first = command.first, !first.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .usage("bind: no command; write it after --, e.g. liveactivity bind \(keys) -- liveactivity toggle focus")
        }
        if let bad = command.first(where: { $0.contains("\n") || $0.contains("\0") }) {
            throw .usage("bind: a command word holds a line break or NUL: \(bad.debugDescription)")
        }
        self.name = name
        self.chord = chord
        self.command = command
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
        }
    }

    /// The command as one POSIX shell line (what sway, i3 and Hyprland hand to `sh -c`, and
    /// what GNOME splits with `g_shell_parse_argv`): plain words as they are, others single-quoted.
    var shellLine: String { command.map(Self.shellQuoted).joined(separator: " ") }

    static func shellQuoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "_@%+=:./-".unicodeScalars.contains($0)
        }
        return plain ? word : "'" + word.replacingAll("'", with: "'\\''") + "'"
    }
}

/// A binding as a desktop holds it, read back for `bindings` and `unbind`.
struct StoredBinding: Equatable, Sendable {
    let name: String
    /// The keys as the desktop writes them (`<Super><Shift>f`, `Meta+Shift+F`, …).
    let keys: String
    let command: String
}
