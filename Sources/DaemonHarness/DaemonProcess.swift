import Foundation
import LiveActivitiesContract

/// The real `liveactivityd` binary on a private bus, with its own state, config and home, so
/// a test can SIGKILL and restart it and look at the files it wrote.
public final class DaemonProcess: @unchecked Sendable {
    public static let busName = BusNames.busName

    public let bus: PrivateBus
    public let home: TemporaryDirectory
    public var extraEnvironment: [String: String]
    private var process: ChildProcess?

    public var stateDirectory: URL { home.url.appendingPathComponent("state/liveactivities") }
    public var configDirectory: URL { home.url.appendingPathComponent("config/liveactivities") }
    public var stateFile: URL { stateDirectory.appendingPathComponent("state.json") }
    public var historyFile: URL { stateDirectory.appendingPathComponent("history.jsonl") }

    /// Starts the daemon and waits until it owns its bus name.
    public init(bus: PrivateBus, environment: [String: String] = [:], start: Bool = true) throws {
        self.bus = bus
        self.home = try TemporaryDirectory(prefix: "liveactivities-home")
        self.extraEnvironment = environment
        if start { try self.start() }
    }

    public var environment: [String: String] {
        var env = bus.environment([
            "HOME": home.path,
            "XDG_STATE_HOME": home.subdirectory("state").path,
            "XDG_CONFIG_HOME": home.subdirectory("config").path,
            "XDG_DATA_HOME": home.subdirectory("data").path,
            "XDG_RUNTIME_DIR": home.subdirectory("run").path,
        ])
        env.removeValue(forKey: "DISPLAY")
        // A build outside the checkout (`--scratch-path`) cannot find the checkout's kinds by itself.
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
        if !BuiltProducts.directory.path.hasPrefix(checkout.path + "/") {
            env["LIVEACTIVITIES_KINDS_DIR"] = checkout.appendingPathComponent("data/kinds").path
        }
        for (key, value) in extraEnvironment { env[key] = value }
        return env
    }

    /// Writes `liveactivityd.conf` (read when the daemon starts): e.g. a short
    /// `min-notify-interval` where the once-a-second card slot is not what a test is about.
    public func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(at: configDirectory, withIntermediateDirectories: true)
        try text.write(to: configDirectory.appendingPathComponent("liveactivityd.conf"), atomically: true, encoding: .utf8)
    }

    public func start() throws {
        let child = try ChildProcess(BuiltProducts.path(of: "liveactivityd"), [], environment: environment,
                                     output: .file(logFile))
        process = child
        guard bus.waitForOwner(Self.busName, timeout: 10) else {
            child.stop()
            throw DaemonError.didNotTakeName(log())
        }
    }

    public var pid: Int32 { process?.pid ?? 0 }
    public var isRunning: Bool { process?.isRunning ?? false }
    /// The exit status once the daemon has exited by itself (nil while it runs or after a signal).
    public var exitStatus: Int32? {
        guard let process, !process.isRunning, process.process.terminationReason == .exit else { return nil }
        return process.process.terminationStatus
    }

    /// SIGKILL, as a crash would: nothing is flushed on the way out.
    public func kill() {
        process?.stop()
        _ = bus.waitForNoOwner(Self.busName)
    }

    /// SIGKILL and reap, without waiting for the bus to notice: for teardown, so the daemon
    /// goes before the fake servers it talks to.
    public func stop() { process?.stop() }

    public func restart() throws {
        kill()
        try start()
    }

    /// The daemon's log (stdout and stderr of every run).
    public var logFile: URL { home.url.appendingPathComponent("daemon.log") }

    public func log() -> String {
        (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    }

    deinit { process?.stop() }
}

/// Why the daemon could not be had.
public enum DaemonError: Error {
    case didNotTakeName(String)
}
