import Foundation
import Testing
import TestSupport

/// `scripts/run`, the README's first command (issue 30): with no session bus it starts a private
/// one, prints the one line a second terminal pastes (the bus and the CLI on PATH), and leaves
/// nothing behind: not on Ctrl-C, not when another daemon already holds the state and this one
/// is refused. (`LIVEACTIVITIES_BIN` points it at the debug build, so it neither installs nor builds.)
@Suite("scripts/run", .timeLimit(.minutes(2)))
struct RunScriptTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/run").standardized.path

    /// A home and a TMPDIR of its own, and no session bus: what a fresh terminal without a desktop has.
    private func environment(home: TemporaryDirectory, tmp: TemporaryDirectory) -> [String: String] {
        ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home.path, "TMPDIR": tmp.path,
         "XDG_STATE_HOME": home.subdirectory("state").path, "XDG_CONFIG_HOME": home.subdirectory("config").path,
         "XDG_DATA_HOME": home.subdirectory("data").path, "XDG_RUNTIME_DIR": home.subdirectory("run").path,
         "LIVEACTIVITIES_NO_CARDS": "1", "LIVEACTIVITIES_BIN": BuiltProducts.directory.path]
    }

    /// The address in the printed `export` line, once it is printed.
    private func pastedLine(of run: ChildProcess) -> String? {
        while let line = readLine(from: run.standardOutput) {
            if line.contains("export DBUS_SESSION_BUS_ADDRESS=") { return line }
        }
        return nil
    }

    private func address(in line: String) -> String? {
        line.split(separator: " ").first { $0.hasPrefix("DBUS_SESSION_BUS_ADDRESS=") }
            .map { String($0.dropFirst("DBUS_SESSION_BUS_ADDRESS=".count)) }
    }

    @Test func ctrlCEndsTheDaemonAndItsPrivateBusAndRemovesItsDirectory() throws {
        let home = try TemporaryDirectory(prefix: "la-run-home"), tmp = try TemporaryDirectory(prefix: "la-run-tmp")
        let run = try ChildProcess("/bin/bash", [Self.script], environment: environment(home: home, tmp: tmp))
        let line = try #require(pastedLine(of: run))
        #expect(line.contains("PATH=\"\(BuiltProducts.directory.path):$PATH\""), "the CLI goes on PATH: \(line)")
        let bus = try #require(address(in: line))
        // The daemon serves on that bus: the CLI of the pasted line reaches it.
        let served = waitUntil(timeout: 10) {
            (try? runCommand(BuiltProducts.directory.appendingPathComponent("liveactivity").path, ["list"],
                             environment: ["DBUS_SESSION_BUS_ADDRESS": bus]))?.status == 0
        }
        #expect(served)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).count == 1, "the private bus's directory")
        run.send(SIGINT)
        run.process.waitUntilExit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty, "its directory is removed")
        let reached = try runCommand("dbus-send", ["--bus=\(bus)", "--print-reply", "--dest=org.freedesktop.DBus", "/",
                                                   "org.freedesktop.DBus.GetId"], timeout: 10)
        #expect(reached.status != 0, "the private bus is gone")
    }

    @Test func aRefusedSecondRunLeavesNoBusBehind() throws {
        let home = try TemporaryDirectory(prefix: "la-run-home"), tmp = try TemporaryDirectory(prefix: "la-run-tmp")
        let first = try ChildProcess("/bin/bash", [Self.script], environment: environment(home: home, tmp: tmp))
        let firstLine = try #require(pastedLine(of: first))
        let firstBus = try #require(address(in: firstLine))
        #expect(waitUntil(timeout: 10) {
            (try? runCommand(BuiltProducts.directory.appendingPathComponent("liveactivity").path, ["list"],
                             environment: ["DBUS_SESSION_BUS_ADDRESS": firstBus]))?.status == 0
        })
        // The same home: the second daemon finds the state locked and exits; its bus goes with it.
        let second = try runCommand("/bin/bash", [Self.script], environment: environment(home: home, tmp: tmp), timeout: 30)
        #expect(second.status != 0, "\(second.stdout)\(second.stderr)")
        #expect(second.stderr.contains("lock") || second.stdout.contains("lock"), "\(second.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).count == 1, "only the first run's bus is left")
        first.send(SIGINT)
        first.process.waitUntilExit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty)
    }
}
