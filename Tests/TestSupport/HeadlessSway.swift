import DaemonHarness
import Foundation

/// Real sway headless as nobody (sway refuses root), for tests that need a real Wayland
/// compositor (idle notifications): its socket's path, and `swaymsg` against it. Started as
/// the mako tests start it (`WLR_BACKENDS=headless`, no input devices, pixman).
public final class HeadlessSway: @unchecked Sendable {
    static let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]

    /// Whether sway is installed and the tests run as root (to start it as nobody).
    public static var canRun: Bool {
        getuid() == 0 && ["/usr/bin/sway", "/usr/bin/swaymsg"].allSatisfy { FileManager.default.fileExists(atPath: $0) }
    }

    /// The compositor's socket, an absolute path (what `WAYLAND_DISPLAY` may hold).
    public let socketPath: String
    private let home: TemporaryDirectory
    private let run: URL
    private var sway: ChildProcess?

    public init() throws {
        home = try TemporaryDirectory(prefix: "liveactivities-sway")
        chmod(home.path, 0o755)
        run = home.subdirectory("run")
        let nobodyHome = home.subdirectory("home")
        for directory in [run, nobodyHome] {
            chown(directory.path, 65534, 65534)
            chmod(directory.path, 0o700)
        }
        let config = home.url.appendingPathComponent("sway.conf")
        try "xwayland disable\noutput HEADLESS-1 resolution 1280x800\n".write(to: config, atomically: true, encoding: .utf8)
        chmod(config.path, 0o644)
        sway = try ChildProcess("setpriv", Self.nobody + ["sway", "--config", config.path],
                                environment: Self.environment(home: nobodyHome.path, run: run.path), output: .discard)
        var socket: String?
        let runPath = run.path
        _ = waitUntil(timeout: 15) {
            socket = (try? FileManager.default.contentsOfDirectory(atPath: runPath))?
                .first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
            return socket != nil
        }
        guard let socket else {
            sway?.stop()
            throw HeadlessSwayError(reason: "sway headless did not start")
        }
        socketPath = run.appendingPathComponent(socket).path
    }

    /// `swaymsg ARGUMENTS` as nobody, against this sway's IPC socket; its output.
    @discardableResult
    public func message(_ arguments: [String]) throws -> String {
        let ipc = (try? FileManager.default.contentsOfDirectory(atPath: run.path))?.first { $0.hasPrefix("sway-ipc.") } ?? ""
        let result = try runCommand("setpriv", Self.nobody + ["swaymsg", "-s", run.appendingPathComponent(ipc).path] + arguments,
                                    environment: Self.environment(home: home.path, run: run.path), timeout: 10)
        return result.stdout
    }

    public var isRunning: Bool { sway?.isRunning == true }

    public func stop() { sway?.stop() }

    deinit { stop() }

    private static func environment(home: String, run: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME",
                    "DBUS_SESSION_BUS_ADDRESS"] {
            environment.removeValue(forKey: key)
        }
        environment["HOME"] = home
        environment["XDG_RUNTIME_DIR"] = run
        environment["WLR_BACKENDS"] = "headless"
        environment["WLR_LIBINPUT_NO_DEVICES"] = "1"
        environment["WLR_RENDERER"] = "pixman"
        return environment
    }
}

/// Why headless sway could not be had.
public struct HeadlessSwayError: Error {
    public let reason: String
}
