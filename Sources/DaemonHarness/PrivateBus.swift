import DBus
import Foundation

/// A `dbus-daemon` of the test's own: a config with no service directories (nothing is
/// auto-started), a socket in a temp dir, allow-all policy. Never the user's bus.
public final class PrivateBus: @unchecked Sendable {
    public let directory: TemporaryDirectory
    public let address: String
    private let daemon: ChildProcess

    public init() throws {
        directory = try TemporaryDirectory(prefix: "liveactivities-bus")
        let socket = directory.url.appendingPathComponent("bus").path
        let config = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
            <allow user="*"/>
          </policy>
        </busconfig>
        """
        let configURL = directory.url.appendingPathComponent("bus.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        daemon = try ChildProcess("dbus-daemon", ["--config-file=\(configURL.path)", "--nofork", "--print-address=1"])
        guard let printed = readLine(from: daemon.standardOutput), !printed.isEmpty else {
            daemon.stop()
            throw PrivateBusError.didNotStart
        }
        address = printed
    }

    /// The environment for a process on this bus: the session address plus private XDG dirs.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        env.removeValue(forKey: "DBUS_SYSTEM_BUS_ADDRESS")
        for (key, value) in extra { env[key] = value }
        return env
    }

    /// Whether `name` has an owner on this bus right now.
    public func hasOwner(_ name: String) -> Bool {
        guard let connection = try? DBusConnection(address: address) else { return false }
        return Self.owned(name, on: connection)
    }

    /// Waits until `name` has an owner; returns whether it got one in time.
    public func waitForOwner(_ name: String, timeout: Double = 10) -> Bool {
        waitForOwnership(of: name, owned: true, timeout: timeout)
    }

    /// Waits until `name` has no owner; returns whether it lost it in time.
    public func waitForNoOwner(_ name: String, timeout: Double = 5) -> Bool {
        waitForOwnership(of: name, owned: false, timeout: timeout)
    }

    /// Asks the bus on one connection of the wait's own, opened for it: every daemon a test
    /// starts or kills is waited for this way, and a `dbus-send` per question (three programs
    /// run, with `setpriv` and `env`) was 8 % of the whole suite's CPU.
    private func waitForOwnership(of name: String, owned: Bool, timeout: Double) -> Bool {
        guard let connection = try? DBusConnection(address: address) else { return false }
        return waitUntil(timeout: timeout) { Self.owned(name, on: connection) == owned }
    }

    /// `NameHasOwner` on `connection`; false when the bus does not answer.
    private static func owned(_ name: String, on connection: DBusConnection) -> Bool {
        let reply = try? connection.callMethod(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                               interface: "org.freedesktop.DBus", member: "NameHasOwner",
                                               arguments: [.string(name)], timeoutMilliseconds: 5_000)
        return reply?.first?.bool ?? false
    }

    public func stop() { daemon.stop() }
    deinit { daemon.stop() }
}

/// Why a private bus could not be had.
public enum PrivateBusError: Error {
    case didNotStart
}
