/// `bind`, `unbind` and `bindings`: parse, pick the desktop's store, print what it did. They
/// need no daemon (the bound command reaches it when the key is pressed).
extension CommandLineTool {
    static let hotkeyCommandNames: Set<String> = ["bind", "unbind", "bindings"]

    /// The real system unless a test gave its own.
    var hotkeySystem: HotkeySystem {
        hotkeys ?? HotkeySystem(environment: environment, runner: ProcessRunner(environment: environment),
                                globalAccel: BusGlobalAccel(address: environment["DBUS_SESSION_BUS_ADDRESS"]))
    }

    func runHotkeys(_ command: ParsedCommand) throws(CLIError) {
        let system = hotkeySystem
        // Bad keys or an empty command are refused before anything else is looked at.
        let binding = command.spec.name == "bind"
            ? try HotkeyBinding(name: command.options["name"], keys: command.positionals[0], command: command.trailing) : nil
        let desktop = try HotkeyDesktop.resolve(forced: command.options["desktop"], environment: system.environment)
        let store = system.store(for: desktop)
        switch command.spec.name {
        case "bind":
            guard let binding else { return }
            output(try store.bind(binding).joined(separator: "\n"))
        case "unbind":
            let name = try bindingName(command.positionals[0], in: store)
            output(try store.unbind(name).joined(separator: "\n"))
        default:
            let lines = try store.bindings().map { [$0.name, $0.keys, $0.command].joined(separator: "\t") }
            if !lines.isEmpty { output(lines.joined(separator: "\n")) }
        }
    }

    /// The name of the binding `word` means: one of ours with those keys, else `word` as a name.
    private func bindingName(_ word: String, in store: any HotkeyStore) throws(CLIError) -> String {
        if let chord = try? KeyChord(word) {
            let spelling = store.spelling(of: chord)
            if let found = try store.bindings().first(where: { $0.keys == spelling }) { return found.name }
            if !HotkeyBinding.isValidName(word) {
                throw .refused("unbind: nothing bound to \(chord.portable) by liveactivity bind")
            }
        }
        guard HotkeyBinding.isValidName(word) else {
            throw .usage("unbind: \"\(word)\" is neither a key combination (Super+Shift+F) nor a binding name")
        }
        return word
    }
}
