import ActivityFiles
import DBus
import Foundation
@testable import Idle
import Testing
import TestSupport
@testable import LiveActivitiesService

/// `org.freedesktop.ScreenSaver.GetSessionIdleTime` as the real implementations answer it
/// (issue 28): kscreenlocker's milliseconds read as milliseconds, its NotSupported under
/// Wayland handing over to another source, and a reading that is not one (a hang, garbage)
/// asked again with back-off instead of turning idle pausing off. `idle-pause-after = 30`, time
/// from the manual clock; each reading is proven by the fake's call count, never by a sleep.
@Suite(.timeLimit(.minutes(5))) struct ScreenSaverIdleTests {
    static let t0 = ServiceWorld.t0

    /// A focused world with `idle-pause-after = 30` and the fake on its bus.
    final class Setup {
        let world: ServiceWorld
        let screenSaver: FakeScreenSaver

        init(_ flavor: FakeScreenSaver.Flavor, tuning: IdleTuning = IdleTuning(), before: (FakeScreenSaver) -> Void = { _ in }) throws {
            var config = DaemonConfig()
            config.idlePauseAfter = 30
            world = try ServiceWorld.focused(FakeDoNotDisturb(), config: config, idleTuning: tuning)
            screenSaver = try FakeScreenSaver(bus: world.bus, flavor: flavor)
            before(screenSaver)
            world.sync()
        }

        func startFocus() throws -> String {
            try world.client.start("focus", attributes: ["minutes": .uint32(25)])
        }

        /// Waits until the daemon has asked `count` times, then until it has handled the answers
        /// (the fake's Ping to the daemon orders after its replies) and published what it did.
        func waitForCalls(_ count: Int) -> Bool {
            let asked = waitUntil { self.screenSaver.callCount >= count }
            if let daemon = world.client.connection.owner(of: BusNames.busName) { screenSaver.sync(with: daemon) }
            world.sync()
            return asked
        }

        func status(_ id: String) -> String? { (try? world.client.get(id))?["status"]?.string }

        var idleSourceProperty: String? {
            (try? world.client.call("Get", [.string(BusNames.managerInterface), .string("IdleSource")],
                                    interface: "org.freedesktop.DBus.Properties"))?.first?.string
        }

        /// Whether a poll is armed at `time` (within a second).
        func pollArmed(at time: Double) -> Bool { world.clock.pendingWakeups.contains { abs($0 - time) < 1 } }
    }

    /// The issue's reproduction: a user active 1.5 s ago, on kscreenlocker (1500 ms), is not
    /// idle for 1500 s; the session pauses once the reading reaches the threshold, not before.
    @Test func kscreenlockersMillisecondsAreReadAsMilliseconds() throws {
        let setup = try Setup(.kscreenlocker) { $0.setIdle(1.5) }
        #expect(setup.idleSourceProperty == "org.freedesktop.ScreenSaver (kscreenlocker, milliseconds)")
        let id = try setup.startFocus()
        #expect(setup.waitForCalls(1), "the daemon reads the idle time as the session starts")
        #expect(setup.status(id) == "active", "1500 ms idle is not 30 s")
        #expect(setup.pollArmed(at: Self.t0 + 28.5), "the next reading when the threshold could first be reached: \(setup.world.clock.pendingWakeups)")

        setup.screenSaver.setIdle(30.2)
        setup.world.advance(to: Self.t0 + 29)
        #expect(setup.waitForCalls(2))
        #expect(setup.world.client.waitFor { setup.world.client.received("StatusChanged").contains { $0.last?.string == "paused" } })
        #expect(setup.status(id) == "paused", "idle 30.2 s ≥ 30 s")
    }

    /// Old gnome-screensaver and xfce4-screensaver answer seconds: read as seconds still.
    @Test func otherScreenSaversAnswerSeconds() throws {
        let setup = try Setup(.seconds) { $0.setIdle(31) }
        #expect(setup.idleSourceProperty == "org.freedesktop.ScreenSaver (seconds)")
        let id = try setup.startFocus()
        #expect(setup.waitForCalls(1))
        #expect(setup.world.client.waitFor { setup.world.client.received("StatusChanged").contains { $0.last?.string == "paused" } })
        #expect(setup.status(id) == "paused")
    }

    /// kscreenlocker under Wayland answers NotSupported: the source gives up (no more calls,
    /// the `IdleSource` property empties), and a monitor that comes later serves.
    @Test func notSupportedHandsOverToTheNextSource() throws {
        let setup = try Setup(.kscreenlocker) { $0.always(.error("org.freedesktop.DBus.Error.NotSupported")) }
        let id = try setup.startFocus()
        #expect(setup.waitForCalls(1))
        #expect(setup.idleSourceProperty == "", "no source can tell: \(setup.idleSourceProperty ?? "nil")")
        setup.world.advance(to: Self.t0 + 600)
        #expect(setup.screenSaver.callCount == 1, "a source that cannot tell is not asked again")
        #expect(setup.status(id) == "active")

        let monitor = try FakeMutterIdleMonitor(bus: setup.world.bus)
        setup.world.sync()
        let watch = try #require(monitor.idleWatch(), "the next source serves the running session")
        #expect(watch.idleMilliseconds == 30_000)
        #expect(setup.idleSourceProperty == "Mutter IdleMonitor")
    }

    /// A call that hangs once times out and is asked again 30 s later (an injected short call
    /// timeout; the back-off on the manual clock); the next answer pauses the session.
    @Test func aHungReadingIsAskedAgain() throws {
        let setup = try Setup(.kscreenlocker, tuning: IdleTuning(callTimeout: 0.2)) { $0.queue([.hang]); $0.setIdle(45) }
        let id = try setup.startFocus()
        #expect(setup.waitForCalls(1))
        #expect(waitUntil { setup.pollArmed(at: Self.t0 + 30) }, "asked again after 30 s: \(setup.world.clock.pendingWakeups)")
        #expect(setup.status(id) == "active")
        setup.world.advance(to: Self.t0 + 29)
        #expect(setup.screenSaver.callCount == 1, "not sooner than 30 s")
        setup.world.advance(to: Self.t0 + 31)
        #expect(setup.waitForCalls(2))
        #expect(setup.world.client.waitFor { setup.world.client.received("StatusChanged").contains { $0.last?.string == "paused" } })
    }

    /// Garbage (a string, int64-min, more than ten years) is not a reading: each is asked again,
    /// after 30, 60 and 120 s, and the first good answer serves. int64-min no longer moves the
    /// next poll a year away.
    @Test func garbageReadingsAreAskedAgainWithBackOff() throws {
        let setup = try Setup(.kscreenlocker) {
            $0.queue([.value(.string("soon")), .value(.int64(.min)), .value(.uint64(400_000_000_000))])
            $0.setIdle(1)
        }
        let id = try setup.startFocus()
        var time = Self.t0
        for (index, wait) in [30.0, 60, 120].enumerated() {
            #expect(setup.waitForCalls(index + 1))
            #expect(setup.pollArmed(at: time + wait), "reading \(index + 1) asked again after \(wait) s: \(setup.world.clock.pendingWakeups)")
            #expect(setup.status(id) == "active")
            time += wait
            setup.world.advance(to: time + 0.5)
        }
        #expect(setup.waitForCalls(4))
        #expect(setup.pollArmed(at: time + 29), "a good reading (1 s) polls at the threshold again: \(setup.world.clock.pendingWakeups)")
        #expect(setup.status(id) == "active")
    }
}
