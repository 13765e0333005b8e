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
        let result = try? runCommand("dbus-send", ["--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus",
                                                   "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                                                   "string:\(name)"], timeout: 5)
        return result?.stdout.contains("boolean true") ?? false
    }

    /// Waits until `name` has an owner; returns whether it got one in time.
    public func waitForOwner(_ name: String, timeout: Double = 10) -> Bool {
        waitUntil(timeout: timeout) { hasOwner(name) }
    }

    public func stop() { daemon.stop() }
    deinit { daemon.stop() }
}

/// Why a private bus could not be had.
public enum PrivateBusError: Error {
    case didNotStart
}
