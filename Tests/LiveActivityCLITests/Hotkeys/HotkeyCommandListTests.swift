import ActivityModel
import Testing
@testable import LiveActivityCLI

/// The hotkey commands are everywhere a user looks for commands: `--help`, the man page, shell completion.
@Suite(.timeLimit(.minutes(1))) struct HotkeyCommandListTests {
    static var completion: CompletionCandidates { CompletionCandidates(catalog: KindCatalog(), activityIDs: { [] }, kindOfActivity: { _ in nil }) }

    @Test func helpManAndCompletionListBindUnbindAndBindings() {
        for name in ["bind", "unbind", "bindings"] {
            #expect(CommandSpec.overview.contains("\n  \(name) "), "\(name) in --help")
            #expect(ManPages.liveactivity.contains(".SS liveactivity \(name)"), "\(name) in the man page")
            #expect(Self.completion.candidates(words: [], current: "").contains(name), "\(name) completes")
        }
        #expect(CommandSpec.named("bind")?.usage == "liveactivity bind KEYS [options] -- COMMAND...")
        #expect(ManPages.liveactivity.contains(".SH HOTKEYS") && ManPages.liveactivity.contains(".SH APP IDENTITY"))
    }

    @Test func optionsComplete() {
        #expect(Self.completion.candidates(words: ["bind", "Super+F", "--desktop"], current: "") == HotkeyDesktop.allCases.map(\.rawValue))
        #expect(Self.completion.candidates(words: ["unbind"], current: "--").contains("--desktop"))
        #expect(Self.completion.candidates(words: ["start", "focus"], current: "--app").contains("--app-id"))
        #expect(Self.completion.candidates(words: ["toggle", "focus"], current: "--app").contains("--app-id"))
    }

    @Test func wordsAfterTheDashesAreTheCommandNotOptions() throws {
        let spec = try #require(CommandSpec.named("bind"))
        let parsed = try ParsedCommand(spec: spec, words: ["Super+F", "--name", "x", "--", "liveactivity", "end", "f", "--reason", "completed"])
        #expect(parsed.positionals == ["Super+F"] && parsed.options == ["name": "x"])
        #expect(parsed.trailing == ["liveactivity", "end", "f", "--reason", "completed"])
    }
}
