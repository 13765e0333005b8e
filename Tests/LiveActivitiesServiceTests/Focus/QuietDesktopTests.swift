import ActivityFiles
import DBus
import Foundation
import Notifications
import Testing
import TestSupport
@testable import LiveActivitiesService

/// Focus quiets the desktop (issue 21): the desktop's Do Not Disturb follows the live focus
/// sessions, the user's own state comes back at the end, after a crash and after a restart,
/// and the daemon's own alerts still break through. In-process, with a recorded Do Not Disturb.
@Suite(.timeLimit(.minutes(5))) struct QuietDesktopTests {
    @Test func aFocusSessionTurnsDoNotDisturbOnAndItsEndPutsTheUsersStateBack() throws {
        let dnd = FakeDoNotDisturb(state: "false")
        let world = try ServiceWorld.focused(dnd)
        world.drainDoNotDisturb()
        #expect(dnd.steps.isEmpty, "nothing live: nothing touched")
        let id = try world.client.start("focus", attributes: ["minutes": .uint32(25)])
        world.drainDoNotDisturb()
        #expect(dnd.state == "true")
        let marker = try JSONSerialization.jsonObject(with: Data(contentsOf: world.quietMarker)) as? [String: Any]
        #expect(marker?["previous"] as? String == "false", "the user's state is saved before it is changed")
        #expect(marker?["mechanism"] as? String == "dunst-paused")
        try world.client.end(id, options: ["reason": .string("completed")])
        world.drainDoNotDisturb()
        #expect(dnd.state == "false")
        #expect(!FileManager.default.fileExists(atPath: world.quietMarker.path), "the marker goes once the state is back")
        #expect(dnd.steps == ["on", "restore false"])
    }

    @Test func aUserWhoHadDoNotDisturbOnKeepsIt() throws {
        let dnd = FakeDoNotDisturb(state: "true")
        let world = try ServiceWorld.focused(dnd)
        let id = try world.client.start("focus", attributes: ["minutes": .uint32(25)])
        world.drainDoNotDisturb()
        try world.client.end(id)
        world.drainDoNotDisturb()
        #expect(dnd.state == "true", "restored to what the user had, not switched off")
    }

    @Test func pausingLiftsTheQuietAndResumingBringsItBack() throws {
        let dnd = FakeDoNotDisturb()
        let world = try ServiceWorld.focused(dnd)
        let id = try world.client.start("focus", attributes: ["minutes": .uint32(25)])
        try world.client.call("Pause", [.string(id)])
        world.drainDoNotDisturb()
        #expect(dnd.state == "false", "a paused session is not focus time")
        try world.client.call("Resume", [.string(id)])
        world.drainDoNotDisturb()
        #expect(dnd.state == "true")
        #expect(dnd.steps == ["on", "restore false", "on"])
    }

    @Test func otherKindsAndTheConfigKeyLeaveTheDesktopAlone() throws {
        let dnd = FakeDoNotDisturb()
        let world = try ServiceWorld.focused(dnd)
        _ = try world.client.start("fasting", attributes: ["protocol": .string("16:8")])
        world.drainDoNotDisturb()
        #expect(dnd.steps.isEmpty, "a fast does not quiet the desktop")

        var config = DaemonConfig()
        config.quietDesktop = false
        let offDND = FakeDoNotDisturb()
        let off = try ServiceWorld.focused(offDND, config: config)
        _ = try off.client.start("focus", attributes: ["minutes": .uint32(25)])
        off.drainDoNotDisturb()
        #expect(offDND.steps.isEmpty, "quiet-desktop = off")
        #expect(!FileManager.default.fileExists(atPath: off.quietMarker.path))
    }

    /// A daemon killed while the desktop is quiet: the next one keeps it quiet while the
    /// session is live, and puts the user's state back once it is not.
    @Test func aRestartedDaemonRestoresOnlyWhenNoQuietingSessionIsLive() throws {
        let dnd = FakeDoNotDisturb(state: "false")
        let home = try TemporaryDirectory(prefix: "quiet-restart")
        var first: ServiceWorld? = try ServiceWorld.focused(dnd, home: home)
        _ = try first?.client.start("focus", attributes: ["minutes": .uint32(25)])
        first?.drainDoNotDisturb()
        #expect(dnd.state == "true")
        first = nil  // gone without a clean exit: the marker stays
        #expect(FileManager.default.fileExists(atPath: home.url.appendingPathComponent("state/quiet-desktop.json").path))

        // 10 minutes later the session is still live: quiet stays, the saved state is kept.
        let second = try ServiceWorld.focused(dnd, at: ServiceWorld.t0 + 600, home: home)
        second.drainDoNotDisturb()
        #expect(dnd.state == "true")
        let marker = try JSONSerialization.jsonObject(with: Data(contentsOf: second.quietMarker)) as? [String: Any]
        #expect(marker?["previous"] as? String == "false", "the user's state from before the first daemon, not \"true\"")

        // An hour later the session ended while no daemon ran: the user's state comes back at start.
        let third = try ServiceWorld.focused(dnd, at: ServiceWorld.t0 + 3600, home: home)
        third.drainDoNotDisturb()
        #expect(dnd.state == "false")
        #expect(!FileManager.default.fileExists(atPath: third.quietMarker.path))
        #expect(third.history().last?.reason == "completed")
    }

    @Test func theDaemonsOwnAlertBreaksThroughWhileQuietAndNotOtherwise() throws {
        let dnd = FakeDoNotDisturb(choice: .gnomeBanners, state: "true")
        let world = try ServiceWorld.focused(dnd, server: "gnome-shell")
        let sink = try #require(world.sink)
        let focus = try world.client.start("focus", attributes: ["minutes": .uint32(25)])
        try world.client.update(focus, [:], options: ["alert-title": .string("Halfway")])
        world.sync()
        #expect(sink.cards(focus).last?.alert?.breaksThrough == true, "critical urgency while the desktop is quiet")
        try world.client.end(focus)
        world.drainDoNotDisturb()
        let build = try world.client.start("generic", state: ["title": .string("Build")])
        try world.client.update(build, [:], options: ["alert-title": .string("Done")])
        world.sync()
        #expect(sink.cards(build).last?.alert != nil)
        #expect(sink.cards(build).last?.alert?.breaksThrough == false, "an ordinary alert once the quiet is over")
    }

    /// Paused dunst shows nothing, critical or not: the alert keeps its usual urgency there.
    @Test func onDunstTheAlertKeepsItsUrgency() throws {
        let world = try ServiceWorld.focused(FakeDoNotDisturb())
        let focus = try world.client.start("focus", attributes: ["minutes": .uint32(25)])
        world.drainDoNotDisturb()
        try world.client.update(focus, [:], options: ["alert-title": .string("Halfway")])
        world.sync()
        #expect(world.sink?.cards(focus).last?.alert?.breaksThrough == false)
    }
}
