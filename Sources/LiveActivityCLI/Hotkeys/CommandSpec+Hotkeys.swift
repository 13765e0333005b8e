/// The three hotkey commands (`bind`, `unbind`, `bindings`): they write where the running
/// desktop keeps its shortcuts and call no daemon (`CommandLineTool+Hotkeys`).
extension CommandSpec {
    static let desktopOption = Option(name: "desktop", takesValue: true,
                                      help: "gnome, plasma, sway, i3 or hyprland (default: the running one)",
                                      values: HotkeyDesktop.allCases.map(\.rawValue))

    static let hotkeyCommands: [CommandSpec] = [
        CommandSpec(name: "bind", positionals: ["KEYS"], acceptsKeyValues: false, options: [
            Option(name: "name", takesValue: true, help: "the binding's name (a-z 0-9 -; default from KEYS)"),
            desktopOption,
        ], summary: "Bind KEYS (e.g. Super+Shift+F) to COMMAND in the running desktop's own shortcuts.",
           examples: ["liveactivity bind Super+Shift+F -- liveactivity toggle focus session-type=Pomodoro",
                      "liveactivity bind Ctrl+Alt+G --name fast -- liveactivity toggle fasting protocol=16:8"],
           trailing: "COMMAND..."),
        CommandSpec(name: "unbind", positionals: ["KEYS|NAME"], acceptsKeyValues: false, options: [desktopOption],
                    summary: "Remove a binding made with bind, leaving the desktop's settings as they were.",
                    examples: ["liveactivity unbind Super+Shift+F", "liveactivity unbind fast"]),
        CommandSpec(name: "bindings", positionals: [], acceptsKeyValues: false, options: [desktopOption],
                    summary: "List the bindings made with bind: name, keys as the desktop writes them, command.",
                    examples: ["liveactivity bindings"]),
    ]
}
