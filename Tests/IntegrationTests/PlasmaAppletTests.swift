import Foundation
import Testing
import TestSupport

/// The Plasma applets as shipped: where `make install-files` puts them, what their metadata
/// declares, that the 5.27 one has no timer (it follows the tray item's signals and reads rows
/// only on a change or a click), that the Plasma 6 one polls only where its D-Bus module cannot
/// follow, and that both show client text as plain text. Their behaviour in real Plasma is
/// checked by the `plasma` (5.27), `plasma6.3` and `plasma6.7` rows of `scripts/desktop-matrix`
/// (OCR of the panel and the popup).
@Suite("Plasma applet files", .timeLimit(.minutes(5)))
struct PlasmaAppletTests {
    static let id = "io.github.liveactivities.compact"
    static let files = ["metadata.json", "contents/ui/main.qml", "contents/ui/ActivityRow.qml",
                        "contents/ui/SegmentedBar.qml", "contents/code/liveactivities.js"]
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

    @Test(arguments: ["contents/ui/main.qml", "contents/ui/ActivityRow.qml", "contents/ui/SegmentedBar.qml",
                      "contents/code/liveactivities.js"])
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

    static let id6 = "io.github.liveactivities.compact6"
    static let files6 = files + ["contents/ui/LiveFollower.qml"]

    @Test func installFilesPutsThePlasma6AppletBesideWithItsOwnCopyOfTheSharedScript() throws {
        let prefix = try TemporaryDirectory(prefix: "liveactivities-prefix")
        let result = try runCommand("make", ["-C", Self.checkout.path, "install-files", "PREFIX=\(prefix.path)",
                                             "BIN=\(BuiltProducts.directory.path)"], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let plasmoids = prefix.url.appendingPathComponent("share/plasma/plasmoids")
        let directory = plasmoids.appendingPathComponent(Self.id6)
        for file in Self.files6 {
            let path = directory.appendingPathComponent(file).path
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            #expect(attributes?[.type] as? FileAttributeType == .typeRegular, "\(file) must be a regular file")
        }
        let shared = try Data(contentsOf: directory.appendingPathComponent("contents/code/liveactivities.js"))
        #expect(shared == (try Data(contentsOf: plasmoids.appendingPathComponent("\(Self.id)/contents/code/liveactivities.js"))))
        let metadata = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("metadata.json")))
            as? [String: Any]
        #expect((metadata?["KPlugin"] as? [String: Any])?["Id"] as? String == Self.id6)
        #expect(metadata?["KPackageStructure"] as? String == "Plasma/Applet")
        #expect(metadata?["X-Plasma-API-Minimum-Version"] as? String == "6.0")
        #expect(metadata?["X-Plasma-API"] == nil && metadata?["ServiceTypes"] == nil, "no Plasma 5 keys")

        let uninstall = try runCommand("make", ["-C", Self.checkout.path, "uninstall", "PREFIX=\(prefix.path)"], timeout: 60)
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test func thePlasma6AppletIsAPlasmoidItemOnTheDBusModuleAndRunsNoProcess() throws {
        let main = try String(contentsOf: Self.checkout.appendingPathComponent("data/plasma/\(Self.id6)/contents/ui/main.qml"),
                              encoding: .utf8)
        #expect(main.contains("\nPlasmoidItem {"))
        #expect(main.contains("import org.kde.plasma.workspace.dbus as DBus"))
        for file in ["main.qml", "ActivityRow.qml", "LiveFollower.qml"] {
            let source = try String(contentsOf: Self.checkout.appendingPathComponent("data/plasma/\(Self.id6)/contents/ui/\(file)"),
                                    encoding: .utf8)
            let versioned = source.split(separator: "\n").filter { $0.hasPrefix("import ") && $0.range(of: #" \d+\.\d+"#, options: .regularExpression) != nil }
            #expect(versioned.isEmpty, "Plasma 6 imports carry no version: \(versioned)")
            for forbidden in ["executable", "connectSource", "Plasma5Support", "statusnotifieritem"] {
                #expect(!source.contains(forbidden), "\(file) uses \(forbidden)")
            }
        }
        // One timer, and it runs only where LiveFollower (Plasma 6.4+) did not load, and only
        // while the daemon is on the bus.
        #expect(main.components(separatedBy: "Timer {").count - 1 == 1)
        #expect(main.contains("running: root.follower === null && daemon.registered"))
    }

    /// Every label that can show client text sets `textFormat: Text.PlainText` (Qt's default,
    /// AutoText, renders text that looks like HTML as rich text).
    @Test(arguments: ["\(id)/contents/ui/main.qml", "\(id)/contents/ui/ActivityRow.qml", "\(id6)/contents/ui/main.qml",
                      "\(id6)/contents/ui/ActivityRow.qml"])
    func labelsArePlainText(file: String) throws {
        let source = try String(contentsOf: Self.checkout.appendingPathComponent("data/plasma/\(file)"), encoding: .utf8)
        let blocks = source.components(separatedBy: "PlasmaComponents3.Label {").dropFirst()
            + source.components(separatedBy: "PlasmaExtras.Heading {").dropFirst()
        #expect(!blocks.isEmpty)
        for block in blocks {
            let body = block.prefix { $0 != "}" }
            #expect(body.contains("textFormat: Text.PlainText"), "\(file): a label without plain text: \(body)")
        }
        #expect(source.contains("toolTipTextFormat: Text.PlainText") || !source.contains("toolTipSubText"))
    }
}
