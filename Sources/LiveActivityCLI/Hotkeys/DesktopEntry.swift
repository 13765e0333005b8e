/// The few desktop entry files `bind` writes (freedesktop Desktop Entry Specification 1.5):
/// a hidden launcher for a command, with its `Exec` quoted as the spec asks.
enum DesktopEntry {
    static func launcher(name: String, command: [String], shortcut: String) -> String {
        """
        [Desktop Entry]
        Type=Application
        Name=\(escapedValue(name))
        Exec=\(exec(command))
        NoDisplay=true
        X-KDE-Shortcuts=\(shortcut)
        X-LiveActivities-Binding=true

        """
    }

    /// The `Exec` value of `command`: words with reserved characters in double quotes (`"`, `` ` ``,
    /// `$` and `\` escaped inside), then the value's own escapes (`\` doubled) and `%` as `%%`.
    static func exec(_ command: [String]) -> String {
        let reserved = Set(" \t\n\"'\\><~|&;$*?#()`")
        let words = command.map { word -> String in
            guard word.isEmpty || word.contains(where: reserved.contains) else { return word }
            var quoted = "\""
            for character in word {
                if "\"`$\\".contains(character) { quoted.append("\\") }
                quoted.append(character)
            }
            return quoted + "\""
        }
        return escapedValue(words.joined(separator: " ")).replacingAll("%", with: "%%")
    }

    static func escapedValue(_ text: String) -> String {
        text.replacingAll("\\", with: "\\\\").replacingAll("\n", with: "\\n").replacingAll("\t", with: "\\t")
    }

    /// The `[Desktop Entry]` group's keys and raw values.
    static func values(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var inGroup = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("[") { inGroup = line == "[Desktop Entry]"; continue }
            guard inGroup, let equals = line.firstIndex(of: "=") else { continue }
            result[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return result
    }
}
