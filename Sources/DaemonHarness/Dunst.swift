import Foundation

/// Real dunst on its own Xvfb display, on a private bus: the notification server a user runs.
public final class Dunst: @unchecked Sendable {
    public let bus: PrivateBus
    public let display: String
    private let xvfb: ChildProcess
    private let dunst: ChildProcess
    private let home: TemporaryDirectory

    public init(bus: PrivateBus) throws {
        self.bus = bus
        home = try TemporaryDirectory(prefix: "liveactivities-dunst")
        xvfb = try ChildProcess("Xvfb", ["-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"])
        guard let number = readLine(from: xvfb.standardOutput), !number.isEmpty else {
            xvfb.stop()
            throw DunstError.xvfbDidNotStart
        }
        display = ":\(number)"
        let config = home.url.appendingPathComponent("dunstrc")
        try """
        [global]
            font = Monospace 10
            width = 420
            origin = top-right
            offset = 10x40
            show_indicators = no
            sticky_history = yes
            history_length = 50
        """.write(to: config, atomically: true, encoding: .utf8)
        dunst = try ChildProcess("dunst", ["-config", config.path], environment: bus.environment([
            "DISPLAY": display, "HOME": home.path, "XDG_RUNTIME_DIR": home.subdirectory("run").path,
            "XDG_CONFIG_HOME": home.subdirectory("config").path,
        ]))
        guard bus.waitForOwner("org.freedesktop.Notifications") else {
            stop()
            throw DunstError.didNotTakeName
        }
    }

    /// Runs `dunstctl` against this dunst.
    public func control(_ arguments: [String]) throws -> CommandResult {
        try runCommand("dunstctl", arguments, environment: bus.environment(["DISPLAY": display]), timeout: 10)
    }

    /// How many notifications dunst shows on screen now.
    public func displayedCount() throws -> Int {
        Int(try control(["count", "displayed"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The dunst process itself (to SIGSTOP or kill it in tests).
    public var process: ChildProcess { dunst }

    public func stop() {
        dunst.stop()
        xvfb.stop()
    }

    deinit { stop() }
}

/// Why dunst could not be had.
public enum DunstError: Error {
    case xvfbDidNotStart
    case didNotTakeName
}
