import Foundation
import Testing
import TestSupport

/// The GNOME Shell extension as shipped: where `make install-files` puts it, what its metadata
/// declares, and that its code never polls, spawns or blocks on the bus. (Its behaviour in a
/// real GNOME Shell 43 is checked by `scripts/desktop-matrix gnome-panel`.)
@Suite("GNOME Shell extension files", .timeLimit(.minutes(5)))
struct GnomeExtensionTests {
    static let uuid = "liveactivities@liveactivities.github.io"
    static let files = ["metadata.json", "extension.js", "island.js", "rows.js", "stylesheet.css"]
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    @Test func installFilesPutsTheExtensionWhereGnomeShellLooks() throws {
        let prefix = try TemporaryDirectory(prefix: "liveactivities-prefix")
        let result = try runCommand("make", ["-C", Self.checkout.path, "install-files", "PREFIX=\(prefix.path)",
                                             "BIN=\(BuiltProducts.directory.path)"], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let directory = prefix.url.appendingPathComponent("share/gnome-shell/extensions/\(Self.uuid)")
        let installed = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(installed == Self.files.sorted())
        let metadata = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("metadata.json")))
            as? [String: Any]
        #expect(metadata?["uuid"] as? String == Self.uuid, "the uuid must equal the directory name")
        #expect(metadata?["shell-version"] as? [String] == ["43", "44"])

        let uninstall = try runCommand("make", ["-C", Self.checkout.path, "uninstall", "PREFIX=\(prefix.path)"], timeout: 60)
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test(arguments: ["extension.js", "island.js", "rows.js"])
    func neverPollsSpawnsOrBlocks(file: String) throws {
        let url = Self.checkout.appendingPathComponent("data/gnome-shell/\(Self.uuid)/\(file)")
        let source = try String(contentsOf: url, encoding: .utf8)
        for forbidden in ["timeout_add", "setTimeout", "setInterval", "spawn", "Subprocess", "call_sync",
                          "new_sync", "new_for_bus_sync", "Sync("] {
            #expect(!source.contains(forbidden), "\(file) uses \(forbidden)")
        }
    }
}
