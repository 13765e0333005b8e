import Testing
@testable import LiveActivityCLI

/// One spelling in, each desktop's spelling out; unknown words are named in the error.
@Suite(.timeLimit(.minutes(1))) struct KeyChordTests {
    @Test func superShiftFAsEachDesktopWritesIt() throws {
        let chord = try KeyChord("Super+Shift+F")
        #expect(chord.portable == "Super+Shift+F")
        #expect(chord.gnome == "<Super><Shift>f")
        #expect(chord.kde == "Meta+Shift+F")
        #expect(chord.swayOrI3 == "Mod4+Shift+f")
        #expect(chord.hyprland == "SUPER SHIFT, F")
        #expect(chord.qtCode == 0x1000_0000 | 0x0200_0000 | 0x46)
        #expect(chord.defaultName == "super-shift-f")
    }

    @Test func aliasesCaseAndOrderAreNormalised() throws {
        let chord = try KeyChord("shift+control+meta+pgup")
        #expect(chord.portable == "Super+Ctrl+Shift+PageUp")
        #expect(chord.gnome == "<Super><Control><Shift>Page_Up")
        #expect(chord.kde == "Meta+Ctrl+Shift+PgUp")
        #expect(chord.swayOrI3 == "Mod4+Control+Shift+Page_Up")
        #expect(try KeyChord("Alt+F12").hyprland == "ALT, F12")
        #expect(try KeyChord("Ctrl+Alt+Return").qtCode == 0x0400_0000 | 0x0800_0000 | 0x0100_0004)
    }

    @Test(arguments: [("Super+Foo", "unknown key name \"Foo\""), ("Hyper+F", "unknown modifier \"Hyper\""),
                      ("Super+", "not a key combination"), ("", "not a key combination"), ("Super+F0", "unknown key name"),
                      ("Super++F", "not a key combination")])
    func badKeysAreNamed(text: String, message: String) {
        #expect(throws: CLIError.self) { try KeyChord(text) }
        do { _ = try KeyChord(text) } catch { #expect(error.status == 2 && error.message.contains(message), "\(error.message)") }
    }

    @Test func theDesktopComesFromTheSession() throws {
        #expect(try HotkeyDesktop.resolve(forced: nil, environment: ["XDG_CURRENT_DESKTOP": "ubuntu:GNOME"]) == .gnome)
        #expect(try HotkeyDesktop.resolve(forced: nil, environment: ["XDG_CURRENT_DESKTOP": "KDE"]) == .plasma)
        #expect(try HotkeyDesktop.resolve(forced: nil, environment: ["XDG_CURRENT_DESKTOP": "GNOME", "SWAYSOCK": "/s"]) == .sway)
        #expect(try HotkeyDesktop.resolve(forced: nil, environment: ["I3SOCK": "/s"]) == .i3)
        #expect(try HotkeyDesktop.resolve(forced: nil, environment: ["HYPRLAND_INSTANCE_SIGNATURE": "x"]) == .hyprland)
        #expect(try HotkeyDesktop.resolve(forced: "KDE", environment: ["XDG_CURRENT_DESKTOP": "GNOME"]) == .plasma)
        #expect(throws: CLIError.self) { try HotkeyDesktop.resolve(forced: nil, environment: ["XDG_CURRENT_DESKTOP": "XFCE"]) }
        #expect(throws: CLIError.self) { try HotkeyDesktop.resolve(forced: "windows", environment: [:]) }
    }

    @Test func commandsAreQuotedForEachReader() throws {
        let binding = try HotkeyBinding(name: nil, keys: "Super+F", command: ["liveactivity", "toggle", "focus", "session-type=Deep Work", "it's"])
        #expect(binding.shellLine == "liveactivity toggle focus 'session-type=Deep Work' 'it'\\''s'")
        #expect(DesktopEntry.exec(["liveactivity", "start", "generic", "title=50% done", "a\"b"])
                == "liveactivity start generic \"title=50%% done\" \"a\\\\\"b\"")
        #expect(GVariantText.parseStringArray("@as []") == [])
        #expect(GVariantText.parseStringArray("['/a/', \"/b'c/\"]") == ["/a/", "/b'c/"])
        #expect(GVariantText.parseString(GVariantText.string("it's \\ x")) == "it's \\ x")
    }
}
