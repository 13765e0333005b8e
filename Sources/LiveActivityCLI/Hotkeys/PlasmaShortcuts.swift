import Foundation

/// Plasma's way (6 and 5.27) to run a command on a key: a hidden `.desktop` launcher in
/// `~/.local/share/applications/` with `X-KDE-Shortcuts`, registered with kglobalaccel, as
/// System Settings → Shortcuts → Add Command does. Undo forgets the shortcut in kglobalaccel
/// and removes the file.
struct PlasmaShortcuts: HotkeyStore {
    static let filePrefix = "liveactivities-"
    let files: HotkeyFiles
    let globalAccel: any GlobalAccel
    /// Runs kbuildsycoca, so that KService (in kglobalaccel) finds the new launcher at once.
    let runner: any CommandRunner

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
        refreshServiceCache()
        do {
            try registerPatiently(component: file, friendlyName: "liveactivity: \(binding.name)", keys: [binding.chord.qtCode])
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
        files.removeIfEmpty(directory)  // made by bind when it held nothing before
        refreshServiceCache()
        return ["unbound \(name) on Plasma"]
    }

    /// Rebuilds KService's cache as KDE's menu editor does after writing a launcher
    /// (`kbuildsycoca6`, or `kbuildsycoca5` on Plasma 5); kglobalaccel reloads it when it changes.
    private func refreshServiceCache() {
        if runner.run("kbuildsycoca6", []).notFound { _ = runner.run("kbuildsycoca5", []) }
    }

    /// `register`, tried again for up to 4 s: KService in kglobalaccel may read its cache a moment late.
    private func registerPatiently(component: String, friendlyName: String, keys: [Int32]) throws(CLIError) {
        var attempt = 0
        while true {
            do {
                return try globalAccel.register(component: component, friendlyName: friendlyName, keys: keys)
            } catch {
                attempt += 1
                guard attempt < 9 else { throw error }
                usleep(500_000)
            }
        }
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
