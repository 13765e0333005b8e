import Foundation
import Testing
@testable import LiveActivityCLI

/// gsettings as an in-memory store of GVariant texts, answering get, set and reset as the real
/// tool does for the media-keys schemas (defaults: `@as []` and `''`).
final class FakeGsettings: CommandRunner, @unchecked Sendable {
    private let lock = NSLock()
    var values: [String: String] = [:]
    var calls = 0

    func run(_ program: String, _ arguments: [String]) -> CommandOutcome {
        lock.lock(); defer { lock.unlock() }
        calls += 1
        guard program == "gsettings", arguments.count >= 3 else { return CommandOutcome(status: 1, stdout: "", stderr: "usage") }
        let key = arguments[1] + " " + arguments[2]
        switch arguments[0] {
        case "get": return CommandOutcome(status: 0, stdout: (values[key] ?? (arguments[2] == "custom-keybindings" ? "@as []" : "''")) + "\n", stderr: "")
        case "set": values[key] = arguments[3]
        case "reset": values[key] = nil
        default: return CommandOutcome(status: 1, stdout: "", stderr: "unknown")
        }
        return CommandOutcome(status: 0, stdout: "", stderr: "")
    }
}

/// GNOME: ours join the user's custom shortcuts and leave them exactly as they were.
@Suite(.timeLimit(.minutes(2))) struct GnomeKeybindingsTests {
    static let user = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/custom0/"
    static let list = "org.gnome.settings-daemon.plugins.media-keys custom-keybindings"

    @Test func bindKeepsTheUsersOthersAndUnbindRestoresThem() throws {
        let home = FakeHome()
        let gsettings = FakeGsettings()
        gsettings.values[Self.list] = "['\(Self.user)']"
        gsettings.values["org.gnome.settings-daemon.plugins.media-keys.custom-keybinding:\(Self.user) binding"] = "'<Super>t'"
        let before = gsettings.values
        let tool = hotkeyTool(home, runner: gsettings, extra: ["XDG_CURRENT_DESKTOP": "GNOME"])
        #expect(throws: Never.self) { try tool.run(["bind", "Super+Shift+F", "--", "liveactivity", "toggle", "focus"]).get() }
        let ours = GnomeKeybindings.path(of: "super-shift-f")
        #expect(gsettings.values[Self.list] == "['\(Self.user)', '\(ours)']")
        let schema = "org.gnome.settings-daemon.plugins.media-keys.custom-keybinding:\(ours)"
        #expect(gsettings.values[schema + " binding"] == "'<Super><Shift>f'")
        #expect(gsettings.values[schema + " command"] == "'liveactivity toggle focus'")
        var listed: [String] = []
        _ = hotkeyTool(home, runner: gsettings, extra: ["XDG_CURRENT_DESKTOP": "GNOME"], output: { listed.append($0) }).run(["bindings"])
        #expect(listed == ["super-shift-f\t<Super><Shift>f\tliveactivity toggle focus"])
        #expect(throws: Never.self) { try tool.run(["unbind", "Super+Shift+F"]).get() }
        #expect(gsettings.values == before)
    }

    @Test func theOnlyBindingGoesBackToTheDefault() throws {
        let gsettings = FakeGsettings()
        let tool = hotkeyTool(FakeHome(), runner: gsettings, extra: ["XDG_CURRENT_DESKTOP": "GNOME"])
        #expect(throws: Never.self) { try tool.run(["bind", "Ctrl+Alt+G", "--name", "fast", "--", "liveactivity", "toggle", "fasting"]).get() }
        #expect(gsettings.values.count == 4)
        #expect(throws: Never.self) { try tool.run(["unbind", "fast"]).get() }
        #expect(gsettings.values.isEmpty)
        guard case .failure(let error) = tool.run(["unbind", "fast"]) else { Issue.record("unbound twice"); return }
        #expect(error == .refused("unbind: no binding named fast on GNOME"))
    }

    static let realGsettings = FileManager.default.isExecutableFile(atPath: "/usr/bin/gsettings")
        && FileManager.default.fileExists(atPath: "/usr/share/glib-2.0/schemas/org.gnome.settings-daemon.plugins.media-keys.gschema.xml")

    /// The real gsettings on its keyfile backend: the keyfile is byte for byte as before.
    @Test(.enabled(if: realGsettings)) func realGsettingsKeyfileIsRestoredByteForByte() throws {
        let home = FakeHome()
        let environment = home.environment.merging(["GSETTINGS_BACKEND": "keyfile", "XDG_CURRENT_DESKTOP": "GNOME"]) { $1 }
        let runner = ProcessRunner(environment: environment)
        let user = "org.gnome.settings-daemon.plugins.media-keys.custom-keybinding:\(Self.user)"
        for arguments in [["set", "org.gnome.settings-daemon.plugins.media-keys", "custom-keybindings", "['\(Self.user)']"],
                          ["set", user, "binding", "<Super>t"], ["set", user, "command", "gnome-terminal"]] {
            #expect(runner.run("gsettings", arguments).status == 0)
        }
        let keyfile = home.path + "/.config/glib-2.0/settings/keyfile"
        let before = try #require(FileManager.default.contents(atPath: keyfile))
        let tool = CommandLineTool(environment: environment, schema: FakeSchema(), output: { _ in },
                                   hotkeys: HotkeySystem(environment: environment, runner: runner, globalAccel: FakeGlobalAccel()))
        #expect(throws: Never.self) { try tool.run(["bind", "Super+Shift+F", "--", "liveactivity", "toggle", "focus"]).get() }
        let during = String(decoding: try #require(FileManager.default.contents(atPath: keyfile)), as: UTF8.self)
        #expect(during.contains("<Super><Shift>f") && during.contains("liveactivities-super-shift-f"), "\(during)")
        #expect(throws: Never.self) { try tool.run(["unbind", "super-shift-f"]).get() }
        let after = try #require(FileManager.default.contents(atPath: keyfile))
        #expect(after == before, "before:\n\(String(decoding: before, as: UTF8.self))\nafter:\n\(String(decoding: after, as: UTF8.self))")
    }
}
