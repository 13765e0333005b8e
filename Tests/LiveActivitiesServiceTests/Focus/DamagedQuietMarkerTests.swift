import Foundation
@testable import Quiet
import Testing
import TestSupport
@testable import LiveActivitiesService

/// Issue 28, row 4: a daemon killed during a focus session, whose Do Not Disturb marker was then
/// damaged (garbage, a symbolic link, the wrong shape). The restarted daemon read its own
/// "quiet" as the user's state and left the user on Do Not Disturb after End; now it restores
/// "not quiet" and says once that it did and why. In-process, with a recorded Do Not Disturb.
@Suite(.timeLimit(.minutes(5))) struct DamagedQuietMarkerTests {
    enum Damage: String, CaseIterable, Sendable {
        case garbage, symlink, wrongShape
    }

    /// A first daemon quiets the desktop for a live session and dies; the marker is then damaged.
    func killedDuringASession(_ dnd: FakeDoNotDisturb, damage: Damage, home: TemporaryDirectory) throws -> (marker: URL, linkTarget: URL) {
        var first: ServiceWorld? = try ServiceWorld.focused(dnd, home: home)
        _ = try first?.client.start("focus", attributes: ["minutes": .uint32(25)])
        first?.drainDoNotDisturb()
        #expect(dnd.state == "true")
        first = nil
        let marker = home.url.appendingPathComponent("state/quiet-desktop.json")
        let linkTarget = home.url.appendingPathComponent("users-own-file")
        try "the user's own file\n".write(to: linkTarget, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: marker)
        switch damage {
        case .garbage: try Data([0x7B, 0xFF, 0x00, 0x22]).write(to: marker)
        case .symlink: try FileManager.default.createSymbolicLink(at: marker, withDestinationURL: linkTarget)
        case .wrongShape: try #"{"mechanism":"dunst-paused","previous":true,"since":"then"}"#.write(to: marker, atomically: true, encoding: .utf8)
        }
        return (marker, linkTarget)
    }

    @Test(arguments: Damage.allCases)
    func theUserIsNotLeftOnDoNotDisturbAfterEnd(damage: Damage) throws {
        let dnd = FakeDoNotDisturb(state: "false")
        let home = try TemporaryDirectory(prefix: "quiet-damaged")
        let (marker, linkTarget) = try killedDuringASession(dnd, damage: damage, home: home)

        let second = try ServiceWorld.focused(dnd, at: ServiceWorld.t0 + 600, home: home)
        second.drainDoNotDisturb()
        #expect(dnd.state == "true", "the session is still live")
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: marker)) as? [String: Any]
        #expect(saved?["previous"] as? String == "false", "not the daemon's own \"true\": \(saved ?? [:])")
        let id = try #require(second.client.list().first?.first)
        try second.client.end(id)
        second.drainDoNotDisturb()
        #expect(dnd.state == "false", "not quiet after End: \(dnd.steps)")
        #expect(!FileManager.default.fileExists(atPath: marker.path))
        #expect(try String(contentsOf: linkTarget, encoding: .utf8) == "the user's own file\n", "a link's target is never touched")
        let outcome = second.onService { $0.focus.support?.quieter?.outcome ?? "" }
        #expect(outcome.contains("restored"), "\(outcome)")
    }

    @Test(arguments: Damage.allCases)
    func aSessionThatEndedWhileTheDaemonWasDownLeavesTheUserNotQuiet(damage: Damage) throws {
        let dnd = FakeDoNotDisturb(state: "false")
        let home = try TemporaryDirectory(prefix: "quiet-damaged-down")
        let (marker, _) = try killedDuringASession(dnd, damage: damage, home: home)
        let third = try ServiceWorld.focused(dnd, at: ServiceWorld.t0 + 3600, home: home)
        third.drainDoNotDisturb()
        #expect(dnd.state == "false", "\(dnd.steps)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: marker.path)) == nil)
        #expect(!FileManager.default.fileExists(atPath: marker.path))
    }

    /// "Not quiet" for each desktop, from its state now (what comes back when the user's is lost).
    @Test func notQuietIsEachDesktopsOwnOff() {
        #expect(MakoDoNotDisturb().notQuietState(from: "default do-not-disturb work") == "default work")
        #expect(DunstDoNotDisturb().notQuietState(from: "true") == "false")
        #expect(GnomeBannersDoNotDisturb().notQuietState(from: "false") == "true")
        #expect(SwayncDoNotDisturb().notQuietState(from: "true") == "false")
    }
}
