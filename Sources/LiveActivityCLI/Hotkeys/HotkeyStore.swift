/// Where one desktop keeps its shortcuts: `bind` writes there, `unbind` takes back exactly
/// what `bind` wrote, `bindings` reads back ours (never the user's others).
protocol HotkeyStore {
    /// Writes `binding` (replacing ours of the same name); lines telling the user where it went.
    func bind(_ binding: HotkeyBinding) throws(CLIError) -> [String]
    /// Removes our binding `name`; lines for the user. Not ours or absent: a `.refused` error.
    func unbind(_ name: String) throws(CLIError) -> [String]
    /// Our bindings, by name.
    func bindings() throws(CLIError) -> [StoredBinding]
    /// How this desktop writes `chord`, to find a binding by its keys.
    func spelling(of chord: KeyChord) -> String
}

/// What the hotkey commands reach outside the process, injected so tests use fakes: the
/// environment (HOME, XDG dirs, the desktop's sockets), the tools, kglobalaccel.
struct HotkeySystem {
    let environment: [String: String]
    let runner: any CommandRunner
    let globalAccel: any GlobalAccel

    /// The store of `desktop`.
    func store(for desktop: HotkeyDesktop) -> any HotkeyStore {
        switch desktop {
        case .gnome: GnomeKeybindings(runner: runner, keyfile: GSettingsKeyfile(files: HotkeyFiles(environment: environment)))
        case .plasma: PlasmaShortcuts(files: HotkeyFiles(environment: environment), globalAccel: globalAccel, runner: runner)
        case .sway, .i3, .hyprland:
            TilingConfigBindings(flavour: TilingFlavour(desktop), files: HotkeyFiles(environment: environment),
                                 runner: runner, environment: environment)
        }
    }
}
