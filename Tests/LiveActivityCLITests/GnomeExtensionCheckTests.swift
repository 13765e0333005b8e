import Testing
@testable import LiveActivityCLI

/// `liveactivity doctor`'s GNOME line: what it says for each installed build, shell version
/// and shell state (the reading of the system is checked on real shells by the desktop matrix).
@Suite("doctor: GNOME extension check", .timeLimit(.minutes(5)))
struct GnomeExtensionCheckTests {
    typealias Check = GnomeExtensionCheck
    static let legacy = Check.InstalledBuild(uuid: "liveactivities@liveactivities.github.io", path: "/usr/share/x",
                                             shellVersions: ["43", "44"])
    static let modern = Check.InstalledBuild(uuid: "liveactivities-shell45@liveactivities.github.io", path: "/usr/share/y",
                                             shellVersions: ["45", "46", "47", "48", "49", "50", "51"])

    struct Row: CustomTestStringConvertible, Sendable {
        var installed: [Check.InstalledBuild]
        var version: String?
        var states: [String: Check.ShellState]
        var line: String
        var testDescription: String { line }
    }

    static let both = [modern, legacy]
    static let rows: [Row] = [
        Row(installed: [], version: "48.7", states: [:],
            line: "[--] GNOME extension: not installed (optional, for GNOME Shell)"),
        Row(installed: both, version: "48.7",
            states: [modern.uuid: .init(state: 1, error: ""), legacy.uuid: .init(state: 4, error: "")],
            line: "[ok] GNOME extension: GNOME Shell 48.7: liveactivities-shell45@liveactivities.github.io fits and is enabled"),
        Row(installed: both, version: "43.9",
            states: [modern.uuid: .init(state: 4, error: ""), legacy.uuid: .init(state: 1, error: "")],
            line: "[ok] GNOME extension: GNOME Shell 43.9: liveactivities@liveactivities.github.io fits and is enabled"),
        Row(installed: both, version: "50.5", states: [modern.uuid: .init(state: 2, error: "")],
            line: "[!!] GNOME extension: GNOME Shell 50.5: liveactivities-shell45@liveactivities.github.io fits but is not enabled "
                + "(fix: gnome-extensions enable liveactivities-shell45@liveactivities.github.io)"),
        Row(installed: both, version: "48.7", states: [modern.uuid: .init(state: 3, error: "SyntaxError: oops")],
            line: "[XX] GNOME extension: GNOME Shell 48.7: liveactivities-shell45@liveactivities.github.io fits but failed: "
                + "SyntaxError: oops (fix: journalctl --user -b | grep -i liveactivities shows the shell's log)"),
        Row(installed: [legacy], version: "48.7", states: [legacy.uuid: .init(state: 4, error: "")],
            line: "[XX] GNOME extension: GNOME Shell 48.7 loads none of the installed builds: "
                + "liveactivities@liveactivities.github.io (GNOME 43–44) (fix: install a liveactivities release that supports GNOME Shell 48)"),
        Row(installed: both, version: "48.7", states: [:],
            line: "[ok] GNOME extension: GNOME Shell 48.7: liveactivities-shell45@liveactivities.github.io fits "
                + "(the shell is not running: enabled unknown) (fix: if the top bar shows nothing: "
                + "gnome-extensions enable liveactivities-shell45@liveactivities.github.io)"),
        Row(installed: [legacy], version: nil, states: [:],
            line: "[ok] GNOME extension: installed: liveactivities@liveactivities.github.io (GNOME 43–44); no GNOME Shell found to match"),
    ]

    @Test(arguments: rows)
    func saysWhetherABuildFitsAndIsEnabled(row: Row) {
        #expect(Check.evaluate(installed: row.installed, shellVersion: row.version, states: row.states).line == row.line)
    }
}
