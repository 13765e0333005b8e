import DBus
import Foundation
import ThreadSupport

/// Which application the activities of this process belong to, as a desktop entry id (iOS
/// knows it from the app's bundle; Linux has no bundle): sent as Start's `app-id`, so the
/// cards carry the app's `desktop-entry` and GNOME or swaync show them under its name and
/// icon, with its per-app settings. In a Flatpak the daemon reads the id itself.
public enum LiveActivityApp {
    private static let lock = ThreadLock()
    nonisolated(unsafe) private static var explicit: String?

    /// The app's desktop entry id (e.g. `org.example.FocusFlow`, without `.desktop`): the one
    /// set here, else `FLATPAK_ID` from the environment, else nil (the cards carry the daemon's own).
    public static var desktopEntryID: String? {
        get {
            lock.lock(); defer { lock.unlock() }
            return explicit ?? ProcessInfo.processInfo.environment["FLATPAK_ID"].flatMap { $0.isEmpty ? nil : $0 }
        }
        set {
            lock.lock(); defer { lock.unlock() }
            explicit = newValue
        }
    }

    /// Start's `app-id` option, when there is an id.
    static var startOptions: [String: DBusValue] {
        desktopEntryID.map { ["app-id": .string($0)] } ?? [:]
    }
}
