import Foundation
import TestSupport

/// Real mako in sway headless, both as nobody (sway refuses root), on the test's private bus,
/// with a `do-not-disturb` mode in its config, as scripts/desktops/servers_wayland.py runs it
/// for the desktop matrix. For the Do Not Disturb tests, which read its modes back with makoctl.
final class HeadlessMako: @unchecked Sendable {
    static let nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    /// Whether mako and sway are installed and the tests run as root (to start them as nobody).
    static var canRun: Bool {
        getuid() == 0 && ["/usr/bin/mako", "/usr/bin/makoctl", "/usr/bin/sway"].allSatisfy { FileManager.default.fileExists(atPath: $0) }
    }

    let bus: PrivateBus
    private let home: TemporaryDirectory
    private var sway: ChildProcess?
    private var mako: ChildProcess?

    init(bus: PrivateBus) throws {
        self.bus = bus
        home = try TemporaryDirectory(prefix: "liveactivities-mako")
        // nobody must reach the bus's socket and the files it reads.
        for path in [bus.directory.path, home.path] { chmod(path, 0o755) }
        chmod(bus.directory.url.appendingPathComponent("bus").path, 0o777)
        let run = home.subdirectory("run"), nobodyHome = home.subdirectory("home")
        for directory in [run, nobodyHome] {
            chown(directory.path, 65534, 65534)
            chmod(directory.path, 0o700)
        }
        let swayConfig = home.url.appendingPathComponent("sway.conf"), makoConfig = home.url.appendingPathComponent("mako.conf")
        try "xwayland disable\noutput HEADLESS-1 resolution 1280x800\n".write(to: swayConfig, atomically: true, encoding: .utf8)
        try "default-timeout=0\n[mode=do-not-disturb]\ninvisible=1\n".write(to: makoConfig, atomically: true, encoding: .utf8)
        for file in [swayConfig, makoConfig] { chmod(file.path, 0o644) }
        var environment = bus.environment(["HOME": nobodyHome.path, "XDG_RUNTIME_DIR": run.path, "WLR_BACKENDS": "headless",
                                           "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman"])
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"] { environment.removeValue(forKey: key) }
        sway = try ChildProcess("setpriv", Self.nobody.dropFirst() + ["sway", "--config", swayConfig.path],
                                environment: environment, output: .discard)
        var socket: String?
        _ = waitUntil(timeout: 15) {
            socket = (try? FileManager.default.contentsOfDirectory(atPath: run.path))?
                .first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
            return socket != nil
        }
        guard let socket else { stop(); throw HeadlessMakoError(reason: "sway headless did not start") }
        environment["WAYLAND_DISPLAY"] = socket
        mako = try ChildProcess("setpriv", Self.nobody.dropFirst() + ["mako", "--config", makoConfig.path],
                                environment: environment, output: .discard)
        guard bus.waitForOwner("org.freedesktop.Notifications") else {
            stop()
            throw HeadlessMakoError(reason: "mako did not take org.freedesktop.Notifications")
        }
    }

    /// `makoctl ARGUMENTS` against this mako; its output, trimmed.
    func control(_ arguments: [String]) throws -> String {
        try runCommand("makoctl", arguments, environment: bus.environment([:]), timeout: 10)
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The modes in force, sorted and space-separated (mako keeps them in an order of its own).
    func modes() throws -> String { try control(["mode"]).split(whereSeparator: \.isNewline).sorted().joined(separator: " ") }

    /// Whether sway and mako still run and what `makoctl mode` says, for a failure's message
    /// (a CI run once saw mako's modes unreadable for a whole story, cause not found).
    func diagnosis() -> String {
        let mode = try? runCommand("makoctl", ["mode"], environment: bus.environment([:]), timeout: 10)
        let answer = mode.map { "status \($0.status), out \($0.stdout.debugDescription), err \($0.stderr.debugDescription)" } ?? "did not run"
        return "sway running \(sway?.isRunning == true), mako running \(mako?.isRunning == true), makoctl mode: \(answer)"
    }

    func stop() {
        mako?.stop()
        sway?.stop()
    }

    deinit { stop() }
}

/// Why headless mako could not be had.
struct HeadlessMakoError: Error {
    let reason: String
}
