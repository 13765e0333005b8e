import Testing
@testable import LiveActivityCLI

/// `liveactivity --help` lists every command a user can type (issue 30: `completions` and `man`
/// were missing, though README and the man page tell people to run them).
@Suite(.timeLimit(.minutes(1))) struct HelpOverviewTests {
    @Test func everyCommandIsListed() {
        let lines = CommandSpec.overview.split(separator: "\n").map { $0.drop { $0 == " " } }
        for name in CommandSpec.all.map(\.name) + ["completions", "man"] {
            #expect(lines.contains { $0.hasPrefix(name + " ") }, "\(name) is missing from --help")
        }
    }
}
