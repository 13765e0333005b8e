import Foundation

/// GNOME's custom shortcuts: the `custom-keybindings` list of gnome-settings-daemon's
/// media-keys plugin, each entry the path of a relocatable `custom-keybinding` (name, command,
/// binding), written with `gsettings` so that dconf, gsd-media-keys and Settings see it at once.
/// Ours have paths ending `liveactivities-NAME/`; the user's others are kept in their order.
struct GnomeKeybindings: HotkeyStore {
    static let schema = "org.gnome.settings-daemon.plugins.media-keys"
    static let relocatable = "org.gnome.settings-daemon.plugins.media-keys.custom-keybinding"
    static let base = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/"
    static let prefix = base + "liveactivities-"

    let runner: any CommandRunner
    let keyfile: GSettingsKeyfile

    static func path(of name: String) -> String { prefix + name + "/" }

    func spelling(of chord: KeyChord) -> String { chord.gnome }

    func bind(_ binding: HotkeyBinding) throws(CLIError) -> [String] {
        var list = try paths()
        let path = Self.path(of: binding.name)
        let replaced = list.contains(path)
        let schema = Self.relocatable + ":" + path
        try gsettings(["set", schema, "name", GVariantText.string("liveactivity: \(binding.name)")])
        try gsettings(["set", schema, "command", GVariantText.string(binding.shellLine)])
        try gsettings(["set", schema, "binding", GVariantText.string(binding.chord.gnome)])
        if !replaced {
            list.append(path)
            try gsettings(["set", Self.schema, "custom-keybindings", GVariantText.stringArray(list)])
        }
        return ["\(replaced ? "replaced" : "bound") \(binding.chord.gnome) on GNOME: \(path) in \(Self.schema) custom-keybindings"]
    }

    func unbind(_ name: String) throws(CLIError) -> [String] {
        var list = try paths()
        let path = Self.path(of: name)
        guard let index = list.firstIndex(of: path) else { throw .refused("unbind: no binding named \(name) on GNOME") }
        list.remove(at: index)
        // An empty list goes back to the schema's default (`@as []`), as before the first bind.
        try gsettings(list.isEmpty ? ["reset", Self.schema, "custom-keybindings"]
                                   : ["set", Self.schema, "custom-keybindings", GVariantText.stringArray(list)])
        for key in ["name", "command", "binding"] { try gsettings(["reset", Self.relocatable + ":" + path, key]) }
        try keyfile.dropEmptyGroup(path)
        return ["unbound \(name) on GNOME"]
    }

    func bindings() throws(CLIError) -> [StoredBinding] {
        try paths().filter { $0.hasPrefix(Self.prefix) }.map { path throws(CLIError) in
            let schema = Self.relocatable + ":" + path
            let name = String(path.dropFirst(Self.prefix.count).dropLast())
            let keys = GVariantText.parseString(try gsettings(["get", schema, "binding"])) ?? ""
            let command = GVariantText.parseString(try gsettings(["get", schema, "command"])) ?? ""
            return StoredBinding(name: name, keys: keys, command: command)
        }
    }

    /// Every entry of `custom-keybindings`, the user's and ours.
    private func paths() throws(CLIError) -> [String] {
        let text = try gsettings(["get", Self.schema, "custom-keybindings"])
        guard let list = GVariantText.parseStringArray(text) else {
            throw .refused("gsettings get \(Self.schema) custom-keybindings printed what is not a list: \(text)")
        }
        return list
    }

    @discardableResult
    private func gsettings(_ arguments: [String]) throws(CLIError) -> String {
        let outcome = runner.run("gsettings", arguments)
        if outcome.notFound { throw .refused("gsettings is not installed (package libglib2.0-bin); GNOME's shortcuts are set with it") }
        guard outcome.status == 0 else {
            throw .refused("gsettings \(arguments.joined(separator: " ")) failed: \(outcome.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return outcome.stdout
    }
}
