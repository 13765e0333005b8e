/// A desktop entry id (`org.gnome.Nautilus`, `firefox-esr`): which application an activity
/// belongs to, sent to notification servers as the `desktop-entry` hint so they file the card
/// under that app (its name, icon and per-app settings). Checked here because the id names a
/// file the server looks up: only the characters desktop file names use, at most 255 bytes.
public enum DesktopEntryID {
    public static let maxBytes = 255

    /// `text` without a trailing `.desktop`, or the reason it is not a desktop entry id.
    public static func validated(_ text: String) -> Result<String, ActivityError> {
        let id = text.hasSuffix(".desktop") ? String(text.dropLast(".desktop".count)) : text
        if let problem = problem(id) { return .failure(.invalidArgument("app-id \(Quoted.text(text)): \(problem)")) }
        return .success(id)
    }

    /// Why `id` is not a desktop entry id, or nil.
    public static func problem(_ id: String) -> String? {
        guard !id.isEmpty else { return "empty; give a desktop entry id such as org.gnome.Nautilus" }
        guard id.utf8.count <= maxBytes else { return "\(id.utf8.count) bytes; a desktop entry id has at most \(maxBytes)" }
        let allowed = id.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0)
        }
        guard allowed else { return "a desktop entry id has only A-Z a-z 0-9 _ - and . (e.g. org.gnome.Nautilus)" }
        guard !id.hasPrefix("."), !id.hasSuffix("."), !id.contains("..") else {
            return "its dot-separated parts must not be empty (e.g. org.gnome.Nautilus)"
        }
        return nil
    }
}
