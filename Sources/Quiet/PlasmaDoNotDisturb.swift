import ActivityFiles
import DBus

/// KDE Plasma: an inhibition (`org.freedesktop.Notifications.Inhibit`, Plasma 5.27 and 6),
/// held on a connection of its own that lives as long as the daemon. Plasma drops an
/// inhibition when its holder leaves the bus, so a crashed daemon never leaves the user
/// silenced, and the user's own Do Not Disturb is never touched (it needs no restoring).
package final class PlasmaDoNotDisturb: DoNotDisturb {
    package let choice = DoNotDisturbChoice.plasmaInhibit
    private var connection: DBusConnection?
    private var cookie: UInt32?
    /// The bus to hold the inhibition on (nil: the session bus).
    private let address: String?
    private static let name = "org.freedesktop.Notifications", path = "/org/freedesktop/Notifications"

    init(address: String? = nil) {
        self.address = address
    }

    package func currentState() throws -> String { "" }

    /// An inhibition dies with its holder, so "not quiet" is simply none held.
    package func notQuietState(from current: String) -> String { "" }

    package func turnOn() throws {
        guard cookie == nil else { return }
        let connection = try self.connection ?? address.map { address throws(DBusError) in try DBusConnection(address: address) }
            ?? DBusConnection.sessionBus()
        self.connection = connection
        let reply = try connection.callMethod(
            destination: Self.name, path: Self.path, interface: Self.name, member: "Inhibit",
            arguments: [.string("liveactivityd"), .string("A focus session is running"), .vardict([:])],
            timeoutMilliseconds: 5_000)
        guard let value = reply.first?.integer else { throw DBusError.failed("Inhibit returned no cookie") }
        cookie = UInt32(truncatingIfNeeded: value)
    }

    package func restore(_ previous: String) throws {
        guard let cookie, let connection else { return }
        self.cookie = nil
        _ = try connection.callMethod(destination: Self.name, path: Self.path, interface: Self.name, member: "UnInhibit",
                                      arguments: [.uint32(cookie)], timeoutMilliseconds: 5_000)
    }
}
