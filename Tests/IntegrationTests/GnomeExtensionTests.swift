import Foundation
import Testing
import TestSupport

/// The GNOME Shell extension as shipped: two builds (43/44 with legacy imports, 45–51 as ES
/// modules), each under its own uuid declaring only its own shell versions, both written by
/// `make install-files` from one shared source, kept enabled on the lock screen; and code that
/// never polls, spawns or blocks on the bus. (Their behaviour in real GNOME Shell 43, 48 and 50 is checked by
/// `scripts/desktop-matrix gnome-panel gnome48-panel gnome50-panel`.)
@Suite("GNOME Shell extension files", .timeLimit(.minutes(5)))
struct GnomeExtensionTests {
    static let legacy = "liveactivities@liveactivities.github.io"
    static let modern = "liveactivities-shell45@liveactivities.github.io"
    static let files = ["extension.js", "island.js", "metadata.json", "stylesheet.css"]
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    @Test func installFilesPutsBothBuildsWhereGnomeShellLooks() throws {
        let prefix = try TemporaryDirectory(prefix: "liveactivities-prefix")
        let result = try runCommand("make", ["-C", Self.checkout.path, "install-files", "PREFIX=\(prefix.path)",
                                             "BIN=\(BuiltProducts.directory.path)"], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let extensions = prefix.url.appendingPathComponent("share/gnome-shell/extensions")
        let shared = try ["rows.js", "lockscreen.js", "island.js"].map { try text(Self.checkout.appendingPathComponent("data/gnome-shell/shared/\($0)")) }
        for (uuid, versions) in [(Self.legacy, ["43", "44"]), (Self.modern, ["45", "46", "47", "48", "49", "50", "51"])] {
            let directory = extensions.appendingPathComponent(uuid)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == Self.files, "\(uuid)")
            let metadata = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("metadata.json")))
                as? [String: Any]
            #expect(metadata?["uuid"] as? String == uuid, "the uuid must equal the directory name")
            #expect(metadata?["shell-version"] as? [String] == versions, "each build declares only its own shells")
            #expect(metadata?["session-modes"] as? [String] == ["user", "unlock-dialog"],
                    "issue 26: GNOME keeps the extension enabled on the lock screen")
            let island = try text(directory.appendingPathComponent("island.js"))
            let header = try text(Self.checkout.appendingPathComponent("data/gnome-shell/\(uuid)/island.head.js"))
            #expect(island == header + shared.joined(), "\(uuid): island.js = its header + the shared source")
        }
        let modernIsland = try text(extensions.appendingPathComponent("\(Self.modern)/island.js"))
        #expect(modernIsland.contains("export { Island };") && !modernIsland.contains("imports."), "45+: an ES module")
        let legacyIsland = try text(extensions.appendingPathComponent("\(Self.legacy)/island.js"))
        #expect(legacyIsland.contains("imports.ui.main") && !legacyIsland.contains("import "), "43/44: legacy imports")
        #expect(try text(extensions.appendingPathComponent("\(Self.modern)/extension.js")).contains("export default class"))

        let uninstall = try runCommand("make", ["-C", Self.checkout.path, "uninstall", "PREFIX=\(prefix.path)"], timeout: 60)
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(!FileManager.default.fileExists(atPath: extensions.appendingPathComponent(Self.legacy).path))
        #expect(!FileManager.default.fileExists(atPath: extensions.appendingPathComponent(Self.modern).path))
    }

    @Test(arguments: ["shared/island.js", "shared/rows.js", "shared/lockscreen.js", "\(legacy)/extension.js", "\(legacy)/island.head.js",
                      "\(modern)/extension.js", "\(modern)/island.head.js"])
    func neverPollsSpawnsOrBlocks(file: String) throws {
        let source = try text(Self.checkout.appendingPathComponent("data/gnome-shell/\(file)"))
        for forbidden in ["timeout_add", "setTimeout", "setInterval", "spawn", "Subprocess", "call_sync",
                          "new_sync", "new_for_bus_sync", "Sync("] {
            #expect(!source.contains(forbidden), "\(file) uses \(forbidden)")
        }
    }
}
