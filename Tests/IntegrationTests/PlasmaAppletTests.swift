import Foundation
import Testing
import TestSupport

/// The Plasma applet as shipped: where `make install-files` puts it, what its metadata
/// declares, and that it has no timer (it follows the tray item's signals and reads rows only
/// on a change or a click). Its behaviour in real Plasma 5.27 is checked by the `plasma` row of
/// `scripts/desktop-matrix` (OCR of the panel and the popup).
@Suite("Plasma applet files", .timeLimit(.minutes(5)))
struct PlasmaAppletTests {
    static let id = "io.github.liveactivities.compact"
    static let files = ["metadata.json", "contents/ui/main.qml", "contents/ui/ActivityRow.qml",
                        "contents/code/liveactivities.js"]
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    @Test func installFilesPutsTheAppletWherePlasmaLooksWithTheInstalledCLI() throws {
        let prefix = try TemporaryDirectory(prefix: "liveactivities-prefix")
        let result = try runCommand("make", ["-C", Self.checkout.path, "install-files", "PREFIX=\(prefix.path)",
                                             "BIN=\(BuiltProducts.directory.path)"], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let directory = prefix.url.appendingPathComponent("share/plasma/plasmoids/\(Self.id)")
        for file in Self.files {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path), "\(file)")
        }
        let metadata = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("metadata.json")))
            as? [String: Any]
        let plugin = metadata?["KPlugin"] as? [String: Any]
        #expect(plugin?["Id"] as? String == Self.id, "the plugin id must equal the directory name")
        #expect(plugin?["ServiceTypes"] as? [String] == ["Plasma/Applet"])
        #expect(metadata?["X-Plasma-MainScript"] as? String == "ui/main.qml")
        let main = try String(contentsOf: directory.appendingPathComponent("contents/ui/main.qml"), encoding: .utf8)
        #expect(main.contains("\"\(prefix.path)/bin/liveactivity\""), "the popup runs the installed CLI")
        #expect(!main.contains("@BINDIR@"))

        let uninstall = try runCommand("make", ["-C", Self.checkout.path, "uninstall", "PREFIX=\(prefix.path)"], timeout: 60)
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test(arguments: ["contents/ui/main.qml", "contents/ui/ActivityRow.qml", "contents/code/liveactivities.js"])
    func hasNoTimerAndRunsNoCommandOnItsOwn(file: String) throws {
        let url = Self.checkout.appendingPathComponent("data/plasma/\(Self.id)/\(file)")
        let source = try String(contentsOf: url, encoding: .utf8)
        for forbidden in ["Timer", "interval:", "setInterval", "setTimeout", "repeat:"] {
            #expect(!source.contains(forbidden), "\(file) uses \(forbidden)")
        }
        if file.hasSuffix("main.qml") {
            // Commands run only from readRows() (popup opened, item changed while open, after a
            // press) and press() (a click): exactly these two connectSource calls.
            #expect(source.components(separatedBy: "commands.connectSource(").count - 1 == 2)
            #expect(source.contains("Plasmoid.onExpandedChanged: if (Plasmoid.expanded) readRows()"))
            #expect(source.contains("onTrayItemChanged: if (Plasmoid.expanded) readRows()"))
        }
    }
}
