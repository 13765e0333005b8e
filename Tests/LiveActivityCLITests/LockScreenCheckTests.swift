import ActivityFiles
import Testing
@testable import LiveActivityCLI

/// `liveactivity doctor`'s lock-screen line (issue 26): what it says for each desktop, build,
/// GNOME privacy setting and daemon setting (GNOME's own answers are read on real shells by the
/// desktop matrix's gnome*-panel rows).
@Suite("doctor: lock screen check", .timeLimit(.minutes(5)))
struct LockScreenCheckTests {
    typealias Check = LockScreenCheck
    static let build = GnomeExtensionCheck.InstalledBuild(
        uuid: "liveactivities-shell45@liveactivities.github.io", path: "/usr/share/y",
        shellVersions: ["45", "46", "47", "48", "49", "50", "51"], sessionModes: ["user", "unlock-dialog"])
    static let oldBuild = GnomeExtensionCheck.InstalledBuild(
        uuid: "liveactivities-shell45@liveactivities.github.io", path: "/usr/share/y", shellVersions: ["48"], sessionModes: ["user"])

    struct Row: CustomTestStringConvertible, Sendable {
        var desktop: Check.Desktop
        var privacy: LockScreenPrivacy = .full
        var mpris = true
        var line: String
        var testDescription: String { line }
    }

    static let rows: [Row] = [
        Row(desktop: .gnome(version: "48.7", build: build, enabled: true, showInLockScreen: true),
            line: "[ok] lock screen: GNOME Shell 48.7: each live activity's title, body, time and bar, up to 3 then \"+N more\" "
                + "(liveactivities-shell45@liveactivities.github.io runs in unlock-dialog)"),
        Row(desktop: .gnome(version: "48.7", build: build, enabled: true, showInLockScreen: true), privacy: .private,
            line: "[ok] lock screen: GNOME Shell 48.7: each live activity's kind, time and bar, no title or body "
                + "(lock-screen = private), up to 3 then \"+N more\" (liveactivities-shell45@liveactivities.github.io runs in unlock-dialog)"),
        Row(desktop: .gnome(version: "48.7", build: build, enabled: true, showInLockScreen: true), privacy: .off,
            line: "[--] lock screen: GNOME Shell 48.7: nothing, as lock-screen = off in liveactivityd.conf"),
        Row(desktop: .gnome(version: "50.5", build: build, enabled: true, showInLockScreen: false),
            line: "[--] lock screen: GNOME Shell 50.5: nothing, as GNOME's Notifications setting hides everything on the lock "
                + "screen (org.gnome.desktop.notifications show-in-lock-screen = false) "
                + "(fix: gsettings set org.gnome.desktop.notifications show-in-lock-screen true)"),
        Row(desktop: .gnome(version: "48.7", build: build, enabled: false, showInLockScreen: true),
            line: "[!!] lock screen: GNOME Shell 48.7: nothing while liveactivities-shell45@liveactivities.github.io is not enabled "
                + "(fix: gnome-extensions enable liveactivities-shell45@liveactivities.github.io)"),
        Row(desktop: .gnome(version: "48.7", build: oldBuild, enabled: true, showInLockScreen: true),
            line: "[!!] lock screen: GNOME Shell 48.7: nothing, the installed liveactivities-shell45@liveactivities.github.io "
                + "predates the lock screen (GNOME disables it on lock) (fix: install this release's extension (make install, or the package))"),
        Row(desktop: .gnome(version: "48.7", build: nil, enabled: nil, showInLockScreen: nil),
            line: "[!!] lock screen: GNOME Shell 48.7: nothing, no installed build of the extension fits it "
                + "(fix: see the GNOME extension line above)"),
        Row(desktop: .gnome(version: "43.9", build: build, enabled: nil, showInLockScreen: nil),
            line: "[ok] lock screen: GNOME Shell 43.9: each live activity's title, body, time and bar, up to 3 then \"+N more\" "
                + "(liveactivities-shell45@liveactivities.github.io runs in unlock-dialog; enabled unknown: the shell is not running; "
                + "show-in-lock-screen unread)"),
        Row(desktop: .plasma,
            line: "[ok] lock screen: KDE Plasma: the most relevant timer, as the media player org.mpris.MediaPlayer2.liveactivities "
                + "(title and time under the password field)"),
        Row(desktop: .plasma, mpris: false,
            line: "[!!] lock screen: KDE Plasma's lock screen shows media players only, and mpris = off in liveactivityd.conf: "
                + "nothing shows there (fix: set mpris = on in liveactivityd.conf and restart the daemon)"),
        Row(desktop: .other,
            line: "[--] lock screen: no lock screen known to show live activities on this desktop (those that show media players "
                + "show the most relevant timer through MPRIS)"),
    ]

    @Test(arguments: rows)
    func saysWhatTheLockScreenShowsAndWhy(row: Row) {
        #expect(Check.evaluate(desktop: row.desktop, privacy: row.privacy, mpris: row.mpris).line == row.line)
    }
}
