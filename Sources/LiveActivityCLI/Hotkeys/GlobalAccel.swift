import DBus

/// kglobalaccel, Plasma's keeper of global shortcuts (`org.kde.kglobalaccel` on the session
/// bus: kglobalacceld in Plasma 6, kglobalaccel5 in 5.27), as `bind` uses it: a seam so tests
/// need no Plasma.
protocol GlobalAccel {
    /// Whether it runs now (it is never started by us).
    func isRunning() -> Bool
    /// Makes kglobalaccel load desktop file `component` as a launcher and give its `_launch`
    /// action `keys` (Qt key codes), as System Settings does for an application's shortcut.
    func register(component: String, friendlyName: String, keys: [Int32]) throws(CLIError)
    /// Forgets the `_launch` shortcut of `component` (releases the key, drops it from kglobalshortcutsrc).
    func unregister(component: String) throws(CLIError)
}

/// The real kglobalaccel, through `org.kde.KGlobalAccel` on `/kglobalaccel`.
struct BusGlobalAccel: GlobalAccel {
    static let name = "org.kde.kglobalaccel"
    let address: String?

    private func connection() throws(CLIError) -> DBusConnection {
        guard let address else { throw .refused("no session bus (DBUS_SESSION_BUS_ADDRESS is unset)") }
        do { return try DBusConnection(address: address) } catch {
            throw .refused("cannot reach the session bus: \(error)")
        }
    }

    func isRunning() -> Bool {
        guard let bus = try? connection() else { return false }
        return DoctorProbes(connection: bus).hasOwner(Self.name)
    }

    private func call(_ bus: DBusConnection, _ member: String, _ arguments: [DBusValue]) throws(CLIError) -> [DBusValue] {
        do {
            return try bus.callMethod(destination: Self.name, path: "/kglobalaccel", interface: "org.kde.KGlobalAccel",
                                      member: member, arguments: arguments, timeoutMilliseconds: 5_000)
        } catch {
            throw .refused("kglobalaccel \(member) failed: \(error)")
        }
    }

    func register(component: String, friendlyName: String, keys: [Int32]) throws(CLIError) {
        let bus = try connection()
        let id = DBusValue.array(elementSignature: "s", [component, "_launch", friendlyName, friendlyName].map(DBusValue.string))
        _ = try call(bus, "doRegister", [id])
        // A QKeySequence travels as (ai): up to four combined key codes, zero-padded.
        let sequences = keys.map { DBusValue.structure([.array(elementSignature: "i", [.int32($0), .int32(0), .int32(0), .int32(0)])]) }
        // SetPresent (2) | NoAutoloading (4): these keys, active now. kglobalaccel launches the
        // desktop file itself, so the action is present whether or not any program runs.
        _ = try call(bus, "setShortcutKeys", [id, .array(elementSignature: "(ai)", sequences), .uint32(6)])
        // kglobalaccel answers nothing when it cannot load the launcher (KService does not find
        // it, e.g. without XDG_MENU_PREFIX): read the keys back.
        guard case .array(_, let held)? = try call(bus, "shortcutKeys", [id]).first,
              keys.allSatisfy({ key in held.contains { Self.firstKey(of: $0) == key } }) else {
            throw .refused("kglobalaccel did not take the shortcut of \(component): it found no such application "
                           + "(is ~/.local/share/applications in XDG_DATA_DIRS, and XDG_MENU_PREFIX set as in a Plasma session?)")
        }
    }

    /// The first combined key code of a QKeySequence as it travels, `(ai)`.
    private static func firstKey(of sequence: DBusValue) -> Int32? {
        guard case .structure(let fields) = sequence, case .array(_, let codes)? = fields.first,
              case .int32(let code)? = codes.first else { return nil }
        return code
    }

    func unregister(component: String) throws(CLIError) {
        _ = try call(try connection(), "unregister", [.string(component), .string("_launch")])
    }
}
