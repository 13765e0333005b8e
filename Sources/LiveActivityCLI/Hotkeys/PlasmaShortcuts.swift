import Foundation

/// Plasma's way (6 and 5.27) to run a command on a key: a hidden `.desktop` launcher in
/// `~/.local/share/applications/` with `X-KDE-Shortcuts`, registered with kglobalaccel, as
/// System Settings → Shortcuts → Add Command does. Undo forgets the shortcut in kglobalaccel
/// and removes the file.
struct PlasmaShortcuts: HotkeyStore {
    static let filePrefix = "liveactivities-"
    let files: HotkeyFiles
    let globalAccel: any GlobalAccel

    var directory: String { files.dataHome + "/applications" }
    static func fileName(of name: String) -> String { filePrefix + name + ".desktop" }

    func spelling(of chord: KeyChord) -> String { chord.kde }

    func bind(_ binding: HotkeyBinding) throws(CLIError) -> [String] {
        let file = Self.fileName(of: binding.name)
        let path = directory + "/" + file
        let replaced = files.exists(path)
        let made = !files.exists(directory)
        if replaced, globalAccel.isRunning() { try globalAccel.unregister(component: file) }
        try files.write(DesktopEntry.launcher(name: "liveactivity: \(binding.name)", command: binding.command,
                                               shortcut: binding.chord.kde), to: path)
        var lines = ["\(replaced ? "replaced" : "bound") \(binding.chord.kde) on Plasma: \(files.tilde(path))"]
        guard globalAccel.isRunning() else {
            return lines + ["kglobalaccel is not running: log in to Plasma, then run this bind again to register the key"]
        }
        do {
            try globalAccel.register(component: file, friendlyName: "liveactivity: \(binding.name)", keys: [binding.chord.qtCode])
        } catch {
            try? files.remove(path)
            if made { files.removeIfEmpty(directory) }
            throw error
        }
        lines.append("registered with kglobalaccel as \(file)")
        return lines
    }

    func unbind(_ name: String) throws(CLIError) -> [String] {
        let file = Self.fileName(of: name)
        let path = directory + "/" + file
        guard files.exists(path) else { throw .refused("unbind: no binding named \(name) on Plasma (\(files.tilde(path)))") }
        if globalAccel.isRunning() { try globalAccel.unregister(component: file) }
        try files.remove(path)
        return ["unbound \(name) on Plasma"]
    }

    func bindings() throws(CLIError) -> [StoredBinding] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasPrefix(Self.filePrefix) && $0.hasSuffix(".desktop") }.sorted()
        return names.compactMap { file in
            guard let text = files.read(directory + "/" + file) else { return nil }
            let entry = DesktopEntry.values(text)
            let name = String(file.dropFirst(Self.filePrefix.count).dropLast(".desktop".count))
            return StoredBinding(name: name, keys: entry["X-KDE-Shortcuts"] ?? "", command: entry["Exec"] ?? "")
        }
    }
}
