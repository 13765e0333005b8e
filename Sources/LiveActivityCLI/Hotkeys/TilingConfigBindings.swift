import Foundation
import Glibc

/// sway, i3 and Hyprland keep bindings in their config: `bind` writes ours to a drop-in file
/// of our own (two lines each: a `# liveactivity bind NAME` comment and the binding), checks
/// that the main config includes it (else says the exact line to add), and asks a running
/// compositor to reload. The user's own config is never written; undo removes our lines and,
/// with the last one, the file (and the `config.d` directory if bind made it).
struct TilingConfigBindings: HotkeyStore {
    static let marker = "# liveactivity bind "
    let flavour: TilingFlavour
    let files: HotkeyFiles
    let runner: any CommandRunner
    let environment: [String: String]

    var dropInPath: String { files.configHome + "/" + flavour.dropIn }
    var mainPath: String { files.configHome + "/" + flavour.mainConfig }

    func spelling(of chord: KeyChord) -> String { flavour.spelling(of: chord) }

    /// Our bindings as (name, binding line) pairs, in file order.
    private func entries() -> [(name: String, line: String)] {
        let lines = (files.read(dropInPath) ?? "").split(separator: "\n").map(String.init)
        return lines.indices.compactMap { index in
            guard lines[index].hasPrefix(Self.marker), index + 1 < lines.count else { return nil }
            return (String(lines[index].dropFirst(Self.marker.count)), lines[index + 1])
        }
    }

    private func write(_ entries: [(name: String, line: String)]) throws(CLIError) {
        if entries.isEmpty {
            try files.remove(dropInPath)
            let directory = (dropInPath as NSString).deletingLastPathComponent
            if directory != (mainPath as NSString).deletingLastPathComponent { files.removeIfEmpty(directory) }
            return
        }
        try files.write(entries.map { Self.marker + $0.name + "\n" + $0.line + "\n" }.joined(), to: dropInPath)
    }

    func bind(_ binding: HotkeyBinding) throws(CLIError) -> [String] {
        var current = entries()
        let line = flavour.line(for: binding)
        let replaced = current.contains { $0.name == binding.name }
        current.removeAll { $0.name == binding.name }
        current.append((binding.name, line))
        try write(current)
        var lines = ["\(replaced ? "replaced" : "bound") \(spelling(of: binding.chord)) on \(flavour.title): \(files.tilde(dropInPath))"]
        if included() {
            lines += reload()
        } else {
            lines += ["\(files.tilde(mainPath)) does not include it yet: add this line to it, then reload \(flavour.title):",
                      flavour.includeLine(files.tilde(dropInPath))]
        }
        return lines
    }

    func unbind(_ name: String) throws(CLIError) -> [String] {
        var current = entries()
        guard current.contains(where: { $0.name == name }) else {
            throw .refused("unbind: no binding named \(name) in \(files.tilde(dropInPath))")
        }
        current.removeAll { $0.name == name }
        try write(current)
        return ["unbound \(name) on \(flavour.title)"] + (included() ? reload() : [])
    }

    func bindings() throws(CLIError) -> [StoredBinding] {
        entries().compactMap { entry in
            flavour.parse(entry.line).map { StoredBinding(name: entry.name, keys: $0.keys, command: $0.command) }
        }
    }

    /// Whether the main config has an include (or source) line whose pattern matches our drop-in.
    func included() -> Bool {
        guard let text = files.read(mainPath) else { return false }
        let configDirectory = (mainPath as NSString).deletingLastPathComponent
        return text.split(separator: "\n").contains { line in
            guard let pattern = flavour.includedPattern(String(line)) else { return false }
            var expanded = pattern
            for (variable, value) in [("$XDG_CONFIG_HOME", files.configHome), ("${XDG_CONFIG_HOME}", files.configHome),
                                      ("$HOME", files.home), ("${HOME}", files.home)] {
                expanded = expanded.replacingAll(variable, with: value)
            }
            if expanded.hasPrefix("~/") { expanded = files.home + expanded.dropFirst() }
            if !expanded.hasPrefix("/") { expanded = configDirectory + "/" + expanded }
            return fnmatch(expanded, dropInPath, FNM_PATHNAME) == 0
        }
    }

    /// Asks the running compositor to read its config again; a line saying what happened.
    private func reload() -> [String] {
        let reload = flavour.reload
        guard !(environment[reload.variable] ?? "").isEmpty else {
            return ["\(flavour.title) is not running here (\(reload.variable) is unset): it reads the binding when it starts"]
        }
        let outcome = runner.run(reload.program, reload.arguments)
        guard outcome.status == 0 else {
            return ["\(reload.program) \(reload.arguments.joined(separator: " ")) failed (\(outcome.status)): "
                    + (outcome.stderr + outcome.stdout).trimmingCharacters(in: .whitespacesAndNewlines)]
        }
        return ["\(flavour.title) reloaded its config"]
    }
}
