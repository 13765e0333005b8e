import Foundation

/// GLib's keyfile settings backend (`GSETTINGS_BACKEND=keyfile`, the file
/// `$XDG_CONFIG_HOME/glib-2.0/settings/keyfile`): `gsettings reset` removes a key there but
/// leaves its group header behind, empty. dconf, GNOME's own backend, keeps no empty
/// directories. So that `unbind` leaves this file as it was too, the empty group of our
/// relocated path is dropped, and nothing else.
struct GSettingsKeyfile {
    let files: HotkeyFiles

    var path: String { files.configHome + "/glib-2.0/settings/keyfile" }

    /// Whether the session's settings live in the keyfile.
    var inUse: Bool { files.environment["GSETTINGS_BACKEND"] == "keyfile" }

    /// Removes the group of dconf path `directory` (e.g. `/org/…/liveactivities-x/`) if it holds no key.
    func dropEmptyGroup(_ directory: String) throws(CLIError) {
        guard inUse, let text = files.read(path) else { return }
        let header = "[" + directory.dropFirst().dropLast() + "]"
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: header) else { return }
        var end = start + 1
        while end < lines.count, !lines[end].hasPrefix("[") {
            guard lines[end].trimmingCharacters(in: .whitespaces).isEmpty else { return }  // a key is left: not ours to drop
            end += 1
        }
        // GLib ends every group with a blank line: the header and that line go, nothing else.
        lines.removeSubrange(start..<min(start + 2, end))
        try files.write(lines.joined(separator: "\n"), to: path)
    }
}
