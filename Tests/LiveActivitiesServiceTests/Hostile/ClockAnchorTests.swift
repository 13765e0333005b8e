import ActivityModel
import DBus
import Foundation
import Testing
import TestSupport
@testable import LiveActivitiesService

/// Issue 18, point 9, last bullet: a focus session started without a start time, a few seconds
/// before the wall clock is stepped back ten minutes (NTP correcting a fast clock after login),
/// showed its full time, frozen, for ten minutes on `main`: its start, taken from the old
/// clock, lay in the future. Now a start the daemon took from its own clock moves with the
/// step, while a start the user gave stays as given. In-process, on the injected clock.
@Suite(.timeLimit(.minutes(5))) struct ClockAnchorTests {
    /// The activity's remaining time as the panel shows it (`compact-trailing`, `m:ss`).
    static func remaining(_ world: ServiceWorld, _ id: String) -> String? {
        world.onService { service in (try? service.properties(id: id))?.vardict?["compact-trailing"]?.string }
    }

    static func step(_ world: ServiceWorld, by seconds: Double) {
        let clock = world.clock
        world.onService { service in
            clock.step(by: seconds)
            service.wallClockStepped()
        }
        world.sync()
    }

    @Test(arguments: [-600.0, 600.0])
    func aStartTakenFromTheDaemonsClockMovesWithAStep(step: Double) throws {
        let world = try ServiceWorld()
        let id: String? = world.onService { service in
            try? service.start(kind: "focus", attributes: ["minutes": .int32(25)], state: [:], options: [:])
        }
        let focus = try #require(id)
        world.advance(by: 5)
        #expect(Self.remaining(world, focus) == "24:55")
        Self.step(world, by: step)
        #expect(Self.remaining(world, focus) == "24:55", "the session keeps its running time through the step")
        world.advance(by: 1)
        #expect(Self.remaining(world, focus) == "24:54", "and keeps counting")
    }

    @Test func aStartTheUserGaveStaysAsGiven() throws {
        let world = try ServiceWorld()
        let given = ServiceWorld.t0 - 60
        let id: String? = world.onService { service in
            try? service.start(kind: "focus", attributes: ["minutes": .int32(25), "start-time": .double(given)],
                               state: [:], options: [:])
        }
        let focus = try #require(id)
        #expect(Self.remaining(world, focus) == "24:00")
        Self.step(world, by: -600)
        #expect(Self.remaining(world, focus) == "25:00", "20:00 stays 20:00: the session now starts in nine minutes")
        let start: DBusValue? = world.onService { service in
            (try? service.properties(id: focus))?.vardict?["attributes"]?.vardict?["start-time"]
        }
        #expect(start?.double == given)
    }

    @Test func aPausedMomentMovesWithAStep() throws {
        let world = try ServiceWorld()
        let id: String? = world.onService { service in
            try? service.start(kind: "focus", attributes: ["minutes": .int32(25)], state: [:], options: [:])
        }
        let focus = try #require(id)
        world.advance(by: 60)
        world.onService { service in try? service.pause(id: focus) }
        Self.step(world, by: -600)
        world.advance(by: 30)
        world.onService { service in try? service.resume(id: focus) }
        #expect(Self.remaining(world, focus) == "24:00", "paused at 24:00, resumed at 24:00 though the clock went back")
        world.advance(by: 1)
        #expect(Self.remaining(world, focus) == "23:59")
    }
}
