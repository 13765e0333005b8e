import ActivityFiles
import Foundation

/// The doctor's lock-screen line (issue 26): what the lock screen of this desktop will show of
/// live activities, and why. On GNOME that is our extension's column, which needs the build
/// that fits the shell enabled and declaring `unlock-dialog`, GNOME's `show-in-lock-screen`
/// on, and the daemon's `lock-screen` not off; on KDE Plasma it is the greeter's media
/// controls, fed by our MPRIS player (`mpris`); elsewhere nothing we know of.
struct LockScreenCheck {
    typealias Finding = Doctor.Finding

    /// What the running desktop is, as far as the lock screen goes.
    enum Desktop: Equatable {
        /// GNOME Shell is on the bus: `build` is the installed build that fits it (nil: none);
        /// `enabled` what the shell says of it (nil: unknown); `showInLockScreen` GNOME's
        /// setting (nil: could not be read).
        case gnome(version: String, build: GnomeExtensionCheck.InstalledBuild?, enabled: Bool?, showInLockScreen: Bool?)
        case plasma
        case other
    }

    static let check = "lock screen"

    static func evaluate(desktop: Desktop, privacy: LockScreenPrivacy, mpris: Bool) -> Finding {
        switch desktop {
        case .gnome(let version, let build, let enabled, let showInLockScreen):
            return gnome(version: version, build: build, enabled: enabled, showInLockScreen: showInLockScreen,
                         privacy: privacy)
        case .plasma:
            guard mpris else {
                return Finding(level: .warning, check: check, text: "KDE Plasma's lock screen shows media players only, "
                               + "and mpris = off in liveactivityd.conf: nothing shows there",
                               fix: "set mpris = on in liveactivityd.conf and restart the daemon")
            }
            return Finding(level: .ok, check: check, text: "KDE Plasma: the most relevant timer, as the media player "
                           + "org.mpris.MediaPlayer2.liveactivities (title and time under the password field)")
        case .other:
            return Finding(level: .info, check: check, text: "no lock screen known to show live activities on this desktop"
                           + (mpris ? " (those that show media players show the most relevant timer through MPRIS)" : ""))
        }
    }

    private static func gnome(version: String, build: GnomeExtensionCheck.InstalledBuild?, enabled: Bool?,
                              showInLockScreen: Bool?, privacy: LockScreenPrivacy) -> Finding {
        let shell = "GNOME Shell \(version)"
        guard privacy != .off else {
            return Finding(level: .info, check: check, text: "\(shell): nothing, as lock-screen = off in liveactivityd.conf")
        }
        guard let build else {
            return Finding(level: .warning, check: check, text: "\(shell): nothing, no installed build of the extension fits it",
                           fix: "see the GNOME extension line above")
        }
        guard build.sessionModes.contains("unlock-dialog") else {
            return Finding(level: .warning, check: check,
                           text: "\(shell): nothing, the installed \(build.uuid) predates the lock screen (GNOME disables it on lock)",
                           fix: "install this release's extension (make install, or the package)")
        }
        if enabled == false {
            return Finding(level: .warning, check: check, text: "\(shell): nothing while \(build.uuid) is not enabled",
                           fix: "gnome-extensions enable \(build.uuid)")
        }
        if showInLockScreen == false {
            return Finding(level: .info, check: check,
                           text: "\(shell): nothing, as GNOME's Notifications setting hides everything on the lock screen "
                               + "(org.gnome.desktop.notifications show-in-lock-screen = false)",
                           fix: "gsettings set org.gnome.desktop.notifications show-in-lock-screen true")
        }
        let what = privacy == .full ? "each live activity's title, body, time and bar"
            : "each live activity's kind, time and bar, no title or body (lock-screen = private)"
        let unknowns = [enabled == nil ? "enabled unknown: the shell is not running" : nil,
                        showInLockScreen == nil ? "show-in-lock-screen unread" : nil].compactMap { $0 }
        return Finding(level: .ok, check: check, text: "\(shell): \(what), up to 3 then \"+N more\" (\(build.uuid) runs "
                       + "in unlock-dialog" + (unknowns.isEmpty ? "" : "; \(unknowns.joined(separator: "; "))") + ")")
    }

    // MARK: Reading the system

    /// GNOME's `show-in-lock-screen` through `gsettings` (it only reads), nil when it cannot tell.
    static func gnomeShowsInLockScreen(environment: [String: String]) -> Bool? {
        let output = DoctorTool.output(of: "gsettings", ["get", "org.gnome.desktop.notifications", "show-in-lock-screen"],
                                       path: environment["PATH"] ?? "", environment: environment)
        switch output?.trimmingCharacters(in: .whitespacesAndNewlines) {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }
}
