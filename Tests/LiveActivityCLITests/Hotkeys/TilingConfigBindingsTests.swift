import Foundation
import Testing
@testable import LiveActivityCLI

/// sway, i3, Hyprland: our drop-in file, the include check, the reload, and an exact undo.
@Suite(.timeLimit(.minutes(1))) struct TilingConfigBindingsTests {
    @Test(arguments: [
        ("sway", "sway/config", "include ~/.config/sway/config.d/*\n", "sway/config.d/liveactivities.conf",
         "bindsym Mod4+Shift+f exec liveactivity toggle focus", ["SWAYSOCK": "/run/sway.sock"], ["swaymsg", "reload"]),
        ("i3", "i3/config", "include $HOME/.config/i3/config.d/*.conf\n", "i3/config.d/liveactivities.conf",
         "bindsym Mod4+Shift+f exec --no-startup-id liveactivity toggle focus", ["I3SOCK": "/run/i3"], ["i3-msg", "reload"]),
        ("hyprland", "hypr/hyprland.conf", "source = ~/.config/hypr/liveactivities.conf\n", "hypr/liveactivities.conf",
         "bind = SUPER SHIFT, F, exec, liveactivity toggle focus", ["HYPRLAND_INSTANCE_SIGNATURE": "x"], ["hyprctl", "reload"]),
    ])
    func bindWritesTheDropInAndReloadsUnbindRestores(desktop: String, main: String, include: String, dropIn: String,
                                                     line: String, session: [String: String], reload: [String]) throws {
        let home = FakeHome()
        try home.write("# mine\n" + include, ".config/" + main)
        let before = home.snapshot()
        let runner = RecordingRunner()
        let tool = hotkeyTool(home, runner: runner, extra: session)
        #expect(throws: Never.self) { try tool.run(["bind", "Super+Shift+F", "--", "liveactivity", "toggle", "focus"]).get() }
        let text = String(decoding: try #require(FileManager.default.contents(atPath: home.path + "/.config/" + dropIn)), as: UTF8.self)
        #expect(text == "# liveactivity bind super-shift-f\n" + line + "\n")
        #expect(runner.recorded == [reload])
        #expect(throws: Never.self) { try tool.run(["unbind", "Super+Shift+F"]).get() }
        #expect(runner.recorded == [reload, reload])
        #expect(home.snapshot() == before)
    }

    @Test func aConfigWithoutTheIncludeGetsTheLineToAdd() throws {
        let home = FakeHome()
        try home.write("bindsym Mod4+Return exec foot\n", ".config/sway/config")
        var lines: [String] = []
        let runner = RecordingRunner()
        let tool = hotkeyTool(home, runner: runner, extra: ["SWAYSOCK": "/run/s"], output: { lines.append($0) })
        #expect(throws: Never.self) { try tool.run(["bind", "Super+Shift+F", "--desktop", "sway", "--", "liveactivity", "toggle", "focus"]).get() }
        #expect(lines.joined().hasSuffix("\ninclude ~/.config/sway/config.d/liveactivities.conf"))
        #expect(runner.recorded.isEmpty, "no reload: the config would not read it")
    }

    @Test func twoBindingsShareTheFileAndUndoOneAtATime() throws {
        let home = FakeHome()
        try home.write("include ~/.config/sway/config.d/*\n", ".config/sway/config")
        let before = home.snapshot()
        let tool = hotkeyTool(home, extra: ["XDG_CURRENT_DESKTOP": "sway"])
        #expect(throws: Never.self) { try tool.run(["bind", "Super+Shift+F", "--", "liveactivity", "toggle", "focus"]).get() }
        #expect(throws: Never.self) { try tool.run(["bind", "Super+Shift+G", "--name", "fast", "--", "liveactivity", "toggle", "fasting"]).get() }
        #expect(throws: Never.self) { try tool.run(["bind", "Super+Shift+H", "--name", "fast", "--", "liveactivity", "toggle", "fasting"]).get() }
        var listed: [String] = []
        _ = hotkeyTool(home, extra: ["XDG_CURRENT_DESKTOP": "sway"], output: { listed.append($0) }).run(["bindings"])
        #expect(listed == ["super-shift-f\tMod4+Shift+f\tliveactivity toggle focus\nfast\tMod4+Shift+h\tliveactivity toggle fasting"])
        #expect(throws: Never.self) { try tool.run(["unbind", "fast"]).get() }
        #expect(throws: Never.self) { try tool.run(["unbind", "super-shift-f"]).get() }
        #expect(home.snapshot() == before)
    }

    /// Bad input is refused with its name before anything is looked at or written.
    @Test(arguments: [["bind", "Super+Foo", "--", "liveactivity", "toggle", "focus"], ["bind", "Super+F"], ["bind", "Super+F", "--"],
                      ["bind", "Super+F", "--name", "Bad Name", "--", "x"], ["bind", "Super+F", "--desktop", "windows", "--", "x"]])
    func badInputChangesNothing(arguments: [String]) throws {
        let home = FakeHome()
        try home.write("include ~/.config/sway/config.d/*\n", ".config/sway/config")
        let before = home.snapshot()
        let runner = RecordingRunner()
        let result = hotkeyTool(home, runner: runner, extra: ["SWAYSOCK": "/s"]).run(arguments)
        guard case .failure(let error) = result else { Issue.record("accepted \(arguments)"); return }
        #expect(error.status == 2, "\(error.message)")
        #expect(runner.recorded.isEmpty)
        #expect(home.snapshot() == before)
    }
}
