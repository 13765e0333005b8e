import ActivityFiles
import DBus
import Foundation
import Notifications
import Testing
import TestSupport
@testable import LiveActivitiesService

/// Idle-aware sessions (issue 21): a running focus session pauses once the user has been idle
/// `idle-pause-after` (3 min by default), and when the user is back its card asks whether the
/// time away counts. Idleness from a fake `org.gnome.Mutter.IdleMonitor` on the private bus,
/// time from the manual clock.
@Suite(.timeLimit(.minutes(5))) struct IdleSessionTests {
    /// A world with the idle monitor on its bus and a focus session started at t0.
    final class Away {
        let world: ServiceWorld
        let monitor: FakeMutterIdleMonitor
        let id: String

        init(home: TemporaryDirectory? = nil, minutes: UInt32 = 25) throws {
            world = try ServiceWorld.focused(FakeDoNotDisturb(), home: home)
            monitor = try FakeMutterIdleMonitor(bus: world.bus)
            id = try world.client.start("focus", attributes: ["minutes": .uint32(minutes)], options: ["id": .string("deep")])
            world.sync()
        }

        var status: String? { (try? world.client.get(id))?["status"]?.string }
        var remaining: String? { (try? world.client.get(id))?["compact-trailing"]?.string }

        /// Fires the idle watch at `time` and waits until the session says it is paused.
        func goIdle(at time: Double) throws {
            let watch = try #require(monitor.idleWatch(), "the daemon watches for idleness while the session runs")
            #expect(watch.idleMilliseconds == 180_000, "the default idle-pause-after, 3 min")
            world.advance(to: time)
            monitor.fire(watch)
            #expect(world.client.waitFor { world.client.received("StatusChanged").contains { $0.last?.string == "paused" } })
            world.sync()
        }

        /// Fires the user-active watch at `time` and waits for the card that asks.
        func comeBack(at time: Double) throws {
            let watch = try #require(monitor.userActiveWatch(), "the daemon watches for the user's return while paused")
            world.advance(to: time)
            let sink = try #require(world.sink)
            monitor.fire(watch)
            #expect(waitUntil { sink.cards(self.id).last?.alert != nil })
            world.sync()
        }

        /// The buttons of the session's last card.
        var cardButtons: [String] { world.sink?.cards(id).last?.card.buttons.map(\.label) ?? [] }
    }

    @Test func anIdleUserPausesTheSessionAndDiscardingTakesTheWholeTimeAwayOut() throws {
        let t0 = ServiceWorld.t0
        let away = try Away()
        try away.goIdle(at: t0 + 300)  // idle since t0 + 120
        #expect(away.status == "paused")
        try away.comeBack(at: t0 + 900)
        let card = try #require(away.world.sink?.cards(away.id).last)
        #expect(card.card.title == "Welcome back", "the card pops up to ask: \(card.card.title)")
        #expect(away.cardButtons.prefix(2) == ["Keep away time", "Discard away time"])
        #expect(try away.world.client.call("Get", [.string(BusNames.activityInterface), .string("Actions")],
                                           path: BusNames.activityPath(away.id), interface: "org.freedesktop.DBus.Properties")
                .first.map { "\($0)" }?.contains("discard-away") == true, "panels offer the same choice")

        try away.world.client.call("InvokeAction", [.string(away.id), .string("discard-away")])
        #expect(away.status == "active")
        #expect(away.remaining == "23:00", "the session resumes where it stood when the user went idle (2 min in)")
        try away.world.client.end(away.id, options: ["reason": .string("completed")])
        away.world.sync()
        let entry = try #require(away.world.history().last)
        #expect(entry.awaySeconds == 780, "from going idle (t0+120) to the choice (t0+900)")
        #expect(entry.activeSeconds == 120, "focused: the 2 minutes before going idle")
    }

    @Test func keepingCountsTheTimeAwayAsFocus() throws {
        let t0 = ServiceWorld.t0
        let away = try Away()
        try away.goIdle(at: t0 + 300)
        try away.comeBack(at: t0 + 900)
        try away.world.client.call("InvokeAction", [.string(away.id), .string("keep-away")])
        #expect(away.status == "active")
        #expect(away.remaining == "10:00", "15 minutes counted, as if it never paused")
        away.world.advance(to: t0 + 1500)
        let entry = try #require(away.world.history().last)
        #expect(entry.reason == "completed", "the session ran out on time")
        #expect(entry.awaySeconds == 0)
        #expect(entry.activeSeconds == 1500)
    }

    @Test func theChoiceIsOfferedOnlyWhileASessionWaitsForIt() throws {
        let away = try Away()
        let error = away.world.client.error {
            try away.world.client.call("InvokeAction", [.string(away.id), .string("keep-away")])
        }
        #expect(error?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(away.status == "active", "a refused choice changes nothing")
    }

    /// The paused session and its time away survive a daemon that is killed and restarted.
    @Test func theTimeAwaySurvivesARestart() throws {
        let t0 = ServiceWorld.t0
        let home = try TemporaryDirectory(prefix: "idle-restart")
        var first: Away? = try Away(home: home)
        try first?.goIdle(at: t0 + 300)
        first = nil

        let world = try ServiceWorld.focused(FakeDoNotDisturb(), at: t0 + 900, home: home)
        let monitor = try FakeMutterIdleMonitor(bus: world.bus)
        world.sync()
        #expect(try world.client.get("deep")["status"]?.string == "paused")
        let actions = try world.client.call("Get", [.string(BusNames.activityInterface), .string("Actions")],
                                            path: BusNames.activityPath("deep"), interface: "org.freedesktop.DBus.Properties")
        #expect(actions.first.map { "\($0)" }?.contains("discard-away") == true, "the choice is still offered")
        // The restarted daemon waits for the user again; only the user watch is held.
        _ = world.sink
        #expect(monitor.userActiveWatch() != nil)
        try world.client.call("InvokeAction", [.string("deep"), .string("discard-away")])
        try world.client.end("deep")
        world.sync()
        #expect(world.history().last?.awaySeconds == 780)
    }

    /// Mutter sends `WatchFired` to the watch's owner alone; another connection that sends one
    /// with the same watch id, broadcast or straight to the daemon, pauses nothing (issue 28,
    /// row 6). The client's own later call is the barrier: the bus delivers its messages in order.
    @Test func aSpoofedWatchFiredDoesNotPause() throws {
        let away = try Away()
        let watch = try #require(away.monitor.idleWatch())
        let service = try #require(away.world.client.connection.owner(of: BusNames.busName))
        for destination in [nil, service] {
            let spoof = try DBusMessage.signal(path: FakeMutterIdleMonitor.path, interface: FakeMutterIdleMonitor.name,
                                               member: "WatchFired")
            try spoof.append([.uint32(watch.id)])
            if let destination { spoof.destination = destination }
            away.world.client.connection.send(spoof)
        }
        away.world.sync()
        #expect(away.status == "active", "only the monitor's own WatchFired counts")
        try away.goIdle(at: ServiceWorld.t0 + 300)
        #expect(away.status == "paused", "the real one still does")
    }

    /// A watch Mutter refused is asked for again 30 s later (manual clock), not given up on.
    @Test func aRefusedIdleWatchIsAskedForAgain() throws {
        let world = try ServiceWorld.focused(FakeDoNotDisturb())
        let monitor = try FakeMutterIdleMonitor(bus: world.bus)
        monitor.refuseIdleWatches(1)
        world.sync()
        let id = try world.client.start("focus", attributes: ["minutes": .uint32(25)])
        #expect(waitUntil { monitor.idleWatchAttempts == 1 })
        #expect(waitUntil { world.clock.pendingWakeups.contains { abs($0 - (ServiceWorld.t0 + 30)) < 1 } },
                "asked again after 30 s: \(world.clock.pendingWakeups)")
        #expect(monitor.current.isEmpty)
        world.advance(to: ServiceWorld.t0 + 31)
        let watch = try #require(monitor.idleWatch(), "the second AddIdleWatch holds")
        world.advance(to: ServiceWorld.t0 + 300)
        monitor.fire(watch)
        #expect(world.client.waitFor { world.client.received("StatusChanged").contains { $0.last?.string == "paused" } })
        #expect(try world.client.get(id)["status"]?.string == "paused")
    }

    @Test func withoutAnIdleMonitorNothingPauses() throws {
        let world = try ServiceWorld.focused(FakeDoNotDisturb())
        let id = try world.client.start("focus", attributes: ["minutes": .uint32(25)])
        world.advance(by: 600)
        #expect(try world.client.get(id)["status"]?.string == "active")
    }

    /// KDE and others: GetSessionIdleTime has no event, so it is polled, and only while a
    /// session needs it: once, then when the threshold could first be reached; every 5 s while a
    /// paused session waits; never once the session is over.
    @Test func theScreenSaverIsPolledOnlyWhileASessionNeedsIt() throws {
        let t0 = ServiceWorld.t0
        let world = try ServiceWorld.focused(FakeDoNotDisturb())
        let screenSaver = try FakeScreenSaver(bus: world.bus)
        let sink = try #require(world.sink)
        let id = try world.client.start("focus", attributes: ["minutes": .uint32(25)])
        #expect(waitUntil { screenSaver.callCount == 1 }, "one call at the start")
        world.sync()
        #expect(world.clock.pendingWakeups.contains { abs($0 - (t0 + 180)) < 1 }, "the next at the threshold: \(world.clock.pendingWakeups)")
        world.advance(to: t0 + 170)
        #expect(screenSaver.callCount == 1, "nothing in between")

        screenSaver.setIdle(200)
        world.advance(to: t0 + 181)
        #expect(world.client.waitFor { world.client.received("StatusChanged").contains { $0.last?.string == "paused" } })
        world.sync()
        let paused = screenSaver.callCount
        world.advance(to: t0 + 186)
        #expect(waitUntil { screenSaver.callCount == paused + 1 }, "while the session waits, every 5 s")
        screenSaver.setIdle(0)
        world.advance(to: t0 + 191)
        #expect(waitUntil { sink.cards(id).last?.card.title == "Welcome back" })
        try world.client.call("InvokeAction", [.string(id), .string("discard-away")])
        try world.client.end(id)
        world.sync()
        // A call the daemon sent before the End (the resumed session's first reading) may still
        // be on its way to the fake: the fake's own Ping to the daemon orders after it.
        let daemon = try #require(world.client.connection.owner(of: BusNames.busName))
        #expect(screenSaver.sync(with: daemon))
        let atEnd = screenSaver.callCount
        world.advance(to: t0 + 7200)
        world.sync()
        #expect(screenSaver.sync(with: daemon))
        #expect(screenSaver.callCount == atEnd, "no session, no polling")
    }
}
