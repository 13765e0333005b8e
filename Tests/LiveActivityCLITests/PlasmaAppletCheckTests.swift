import Foundation
import Testing
@testable import LiveActivityCLI

/// `liveactivity doctor`'s Plasma line, on a made-up file tree: the applet that fits the running
/// Plasma, the one that does not, and the Plasma 5 applet left in a Plasma 6 panel.
@Suite("doctor: Plasma applet", .timeLimit(.minutes(5)))
struct PlasmaAppletCheckTests {
    /// A data directory with the given applets and a Plasma session file of `version`, and a
    /// config directory with the given applets placed in the panel.
    final class Tree {
        let root: URL
        init(applets: [String], plasmaVersion: String?, placed: [String] = []) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("plasma-check-\(UUID().uuidString)")
            let share = root.appendingPathComponent("share")
            for applet in applets {
                let dir = share.appendingPathComponent("plasma/plasmoids/\(applet)")
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                try "{}".write(to: dir.appendingPathComponent("metadata.json"), atomically: true, encoding: .utf8)
            }
            if let plasmaVersion {
                let sessions = share.appendingPathComponent("xsessions")
                try FileManager.default.createDirectory(at: sessions, withIntermediateDirectories: true)
                try "[Desktop Entry]\nType=XSession\nX-KDE-PluginInfo-Version=\(plasmaVersion)\n"
                    .write(to: sessions.appendingPathComponent("plasmax11.desktop"), atomically: true, encoding: .utf8)
            }
            let config = root.appendingPathComponent("config")
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            try placed.enumerated().map { "[Containments][1][Applets][\($0.offset + 3)]\nplugin=\($0.element)\n" }
                .joined(separator: "\n")
                .write(to: config.appendingPathComponent("plasma-org.kde.plasma.desktop-appletsrc"), atomically: true,
                       encoding: .utf8)
        }
        deinit { try? FileManager.default.removeItem(at: root) }

        func lines(session: String?) -> [String] {
            var environment = ["HOME": root.path, "XDG_DATA_HOME": root.appendingPathComponent("home-data").path,
                               "XDG_DATA_DIRS": root.appendingPathComponent("share").path,
                               "XDG_CONFIG_HOME": root.appendingPathComponent("config").path]
            if let session {
                environment["XDG_CURRENT_DESKTOP"] = "KDE"
                environment["KDE_SESSION_VERSION"] = session
            }
            return PlasmaAppletCheck(environment: environment).findings().map(\.line)
        }
    }

    static let both = [PlasmaAppletCheck.plasma5Applet, PlasmaAppletCheck.plasma6Applet]

    @Test func bothInstalledOnPlasma63TheSixAppletFitsAndPollsOnceASecond() throws {
        let tree = try Tree(applets: Self.both, plasmaVersion: "6.3.6", placed: [PlasmaAppletCheck.plasma6Applet])
        let lines = tree.lines(session: "6")
        #expect(lines.count == 1)
        #expect(lines[0].hasPrefix("[ok] Plasma applet: io.github.liveactivities.compact6 fits Plasma 6.3.6, installed in "),
                "\(lines)")
        #expect(lines[0].hasSuffix("; it reads the compact text once a second (Plasma 6.4 follows signals); in a panel"))
    }

    @Test func onPlasma67ItFollowsSignals() throws {
        let tree = try Tree(applets: Self.both, plasmaVersion: "6.7.4")
        let line = try #require(tree.lines(session: "6").first)
        #expect(line.contains("compact6 fits Plasma 6.7.4") && line.contains("it follows the daemon's signals"), "\(line)")
        #expect(line.hasSuffix("(fix: if the panel shows nothing: add the widget \"Live Activities\" (io.github.liveactivities.compact6) to a panel)"))
    }

    @Test func onPlasma527TheFiveAppletFits() throws {
        let tree = try Tree(applets: Self.both, plasmaVersion: "5.27.5", placed: [PlasmaAppletCheck.plasma5Applet])
        #expect(tree.lines(session: "5").first?.hasPrefix(
            "[ok] Plasma applet: io.github.liveactivities.compact fits Plasma 5.27.5, installed in ") == true)
        #expect(tree.lines(session: "5").first?.hasSuffix("; in a panel") == true)
    }

    @Test func onlyTheOldAppletUnderAPlasma6SessionIsBroken() throws {
        let tree = try Tree(applets: [PlasmaAppletCheck.plasma5Applet], plasmaVersion: "6.3.6")
        #expect(tree.lines(session: "6") == [
            "[XX] Plasma applet: Plasma 6.3.6 cannot load the installed io.github.liveactivities.compact; "
                + "io.github.liveactivities.compact6 is not installed (fix: reinstall the package (or make install): it installs both applets)"])
        // Outside a Plasma session it is only a warning.
        #expect(tree.lines(session: nil).first?.hasPrefix("[!!] Plasma applet: Plasma 6.3.6 (installed, not running here) cannot load") == true)
    }

    @Test func thePlasma5AppletLeftInAPlasma6PanelIsNamed() throws {
        let tree = try Tree(applets: Self.both, plasmaVersion: "6.3.6", placed: [PlasmaAppletCheck.plasma5Applet])
        let line = try #require(tree.lines(session: "6").first)
        #expect(line.hasPrefix("[!!] Plasma applet: io.github.liveactivities.compact6 fits Plasma 6.3.6"), "\(line)")
        #expect(line.contains("the panel holds io.github.liveactivities.compact, which Plasma 6.3.6 cannot show"))
    }

    @Test func nothingInstalledIsOptionalAndNoPlasmaIsSaid() throws {
        #expect(try Tree(applets: [], plasmaVersion: "6.3.6").lines(session: "6") == [
            "[--] Plasma applet: not installed (optional, for KDE Plasma)"])
        let tree = try Tree(applets: Self.both, plasmaVersion: nil)
        #expect(tree.lines(session: nil).first?.hasPrefix("[--] Plasma applet: installed in ") == true)
        #expect(tree.lines(session: nil).first?.hasSuffix("; no Plasma found here") == true)
    }
}
