import DBus

/// The CLI's only way to the daemon: method calls and property reads on the manager
/// object, with D-Bus errors turned into one-line messages and exit statuses.
final class BusClient {
    static let busName = BusNames.busName
    static let managerPath = BusNames.managerPath
    static let managerInterface = BusNames.managerInterface

    let connection: DBusConnection

    init(address: String?) throws(CLIError) {
        do throws(DBusError) {
            if let address {
                connection = try DBusConnection(address: address)
            } else {
                connection = try DBusConnection.sessionBus()
            }
        } catch {
            throw .noDaemon("cannot connect to the session bus: \(error.message)")
        }
    }

    /// Calls a manager method and returns its reply values.
    func call(_ member: String, _ arguments: [DBusValue] = [], interface: String = BusClient.managerInterface) throws(CLIError) -> [DBusValue] {
        do {
            return try connection.callMethod(destination: Self.busName, path: Self.managerPath, interface: interface,
                                             member: member, arguments: arguments, timeoutMilliseconds: 10_000)
        } catch {
            throw Self.translate(error)
        }
    }

    func property(_ name: String) throws(CLIError) -> DBusValue {
        let reply = try call("Get", [.string(Self.managerInterface), .string(name)], interface: "org.freedesktop.DBus.Properties")
        guard let value = reply.first else { throw .refused("no value for property \(name)") }
        return value.unwrapped
    }

    func setProperty(_ name: String, _ value: DBusValue) throws(CLIError) {
        _ = try call("Set", [.string(Self.managerInterface), .string(name), .variant(value)],
                     interface: "org.freedesktop.DBus.Properties")
    }

    /// `ServiceUnknown` and friends mean no daemon; our own errors print their short name.
    static func translate(_ error: DBusError) -> CLIError {
        let absent = ["org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
                      "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Disconnected"]
        if absent.contains(error.name) {
            return .noDaemon("liveactivityd is not running on this session bus (\(error.message))")
        }
        let short = error.name.split(separator: ".").last.map(String.init) ?? error.name
        return .refused("\(short): \(error.message)")
    }
}
