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
        _ = try call(bus, "setForeignShortcutKeys", [id, .array(elementSignature: "(ai)", sequences)])
    }

    func unregister(component: String) throws(CLIError) {
        _ = try call(try connection(), "unregister", [.string(component), .string("_launch")])
    }
}
