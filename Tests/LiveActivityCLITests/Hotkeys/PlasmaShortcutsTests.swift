import Foundation
import Testing
@testable import LiveActivityCLI

/// Plasma: a hidden launcher with its shortcut, registered with kglobalaccel; undo removes both.
@Suite(.timeLimit(.minutes(1))) struct PlasmaShortcutsTests {
    @Test func bindWritesTheLauncherAndRegistersItUnbindTakesBothBack() throws {
        let home = FakeHome()
        try home.write("[Desktop Entry]\nName=Mine\n", ".local/share/applications/mine.desktop")
        let before = home.snapshot()
        let accel = FakeGlobalAccel()
        let runner = RecordingRunner()
        let tool = hotkeyTool(home, runner: runner, accel: accel, extra: ["XDG_CURRENT_DESKTOP": "KDE"])
        #expect(throws: Never.self) {
            try tool.run(["bind", "Super+Shift+F", "--", "liveactivity", "toggle", "focus", "session-type=Deep Work"]).get()
        }
        let file = home.path + "/.local/share/applications/liveactivities-super-shift-f.desktop"
        let text = String(decoding: try #require(FileManager.default.contents(atPath: file)), as: UTF8.self)
        #expect(text.contains("Exec=liveactivity toggle focus \"session-type=Deep Work\"\n"))
        #expect(text.contains("X-KDE-Shortcuts=Meta+Shift+F\n") && text.contains("NoDisplay=true\n"))
        #expect(accel.shortcuts == ["liveactivities-super-shift-f.desktop": [0x1000_0000 | 0x0200_0000 | 0x46]])
        #expect(runner.recorded == [["kbuildsycoca6"]], "KService's cache rebuilt before kglobalaccel looks the launcher up")
        #expect(throws: Never.self) { try tool.run(["unbind", "Meta+Shift+F"]).get() }
        #expect(accel.shortcuts.isEmpty)
        #expect(accel.calls.last == "unregister liveactivities-super-shift-f.desktop")
        #expect(home.snapshot() == before)
    }

    @Test func withoutKglobalaccelTheFileStaysAndTheUserIsTold() throws {
        let home = FakeHome()
        let accel = FakeGlobalAccel()
        accel.running = false
        var lines: [String] = []
        let tool = hotkeyTool(home, accel: accel, extra: ["XDG_CURRENT_DESKTOP": "KDE"], output: { lines.append($0) })
        #expect(throws: Never.self) { try tool.run(["bind", "Alt+F9", "--", "liveactivity", "pause", "focus"]).get() }
        #expect(lines.joined().contains("kglobalaccel is not running"))
        #expect(accel.calls.isEmpty)
    }
}
