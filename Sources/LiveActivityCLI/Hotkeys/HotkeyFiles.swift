import Foundation

/// The user's config and data directories as the session names them (`XDG_CONFIG_HOME`,
/// `XDG_DATA_HOME`, else under `HOME`), and plain file writes there: the files `bind` makes
/// for Plasma, sway, i3 and Hyprland.
struct HotkeyFiles {
    let environment: [String: String]

    var home: String { environment["HOME"] ?? NSHomeDirectory() }
    var configHome: String { Self.absolute(environment["XDG_CONFIG_HOME"]) ?? home + "/.config" }
    var dataHome: String { Self.absolute(environment["XDG_DATA_HOME"]) ?? home + "/.local/share" }

    private static func absolute(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/") else { return nil }
        return path
    }

    /// `path` written as `home`-relative `~/…` when it lies under HOME (for config lines and messages).
    func tilde(_ path: String) -> String {
        path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path
    }

    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Writes `text` to `path` (its directory made, the file replaced atomically).
    func write(_ text: String, to path: String) throws(CLIError) {
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .refused("cannot write \(path): \(error.localizedDescription)")
        }
    }

    func remove(_ path: String) throws(CLIError) {
        guard exists(path) else { return }
        do { try FileManager.default.removeItem(atPath: path) } catch {
            throw .refused("cannot remove \(path): \(error.localizedDescription)")
        }
    }

    /// Removes directory `path` if it is empty and was made by us (bind made it: nothing else in it).
    func removeIfEmpty(_ path: String) {
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: path), entries.isEmpty {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
