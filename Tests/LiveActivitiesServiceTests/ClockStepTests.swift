import ActivityModel
import DBus
import Foundation
import Testing
import TestSupport
@testable import LiveActivitiesService

/// Wall-clock steps (issue 14, fault 4): after NTP or the user steps the clock back ten
/// minutes, the live timer renders at once from the new time and keeps ticking, and a Start
/// announces ActiveCount at once (throttling runs on the monotonic clock). The service runs
/// in-process on a private bus with an injected wall clock that the test steps.
@Suite(.timeLimit(.minutes(5))) struct ClockStepTests {
    /// The system clock plus an offset the test moves.
    final class SteppingClock: @unchecked Sendable {
        var offset = 0.0
        func now() -> Double { LocalTime.now() + offset }
    }

    static let kinds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("data/kinds").path

    @Test(arguments: [-600.0, 600.0])
    func aSteppedClockRendersAtOnceAndKeepsTicking(step: Double) throws {
        let bus = try PrivateBus()
        let clock = SteppingClock()
        let loop = try EventLoop(wallClock: clock.now)
        let connection = try DBusConnection(address: bus.address)
        connection.attach(to: loop)
        let state = try TemporaryDirectory(prefix: "clockstep")
        let paths = DaemonPaths(stateDirectory: state.path + "/state", configDirectory: state.path + "/config",
                                kindDirectories: [Self.kinds])
        let service = ActivityService(loop: loop, server: DBusObjectServer(connection: connection), paths: paths,
                                      presenter: nil, clock: clock.now)
        try service.exportObjects()
        let start = clock.now().rounded(.down)
        _ = try service.start(kind: "generic", attributes: ["timer-start": .int64(Int64(start) - 3_600),
                                                            "timer-end": .int64(Int64(start) + 3_600)],
                              state: ["title": .string("countdown")], options: [:])
        func compact() -> DBusValue? { service.publishedManager["CompactText"] }
        #expect(loop.run(until: { compact() != nil && compact() != .string("") }, timeout: 3))
        let beforeStep = compact()

        clock.offset += step
        loop.wallClockStepped()
        let afterStep = compact()
        #expect(afterStep != beforeStep, "rendered at once from the new time: \(String(describing: beforeStep)) → \(String(describing: afterStep))")
        #expect(loop.run(until: { compact() != afterStep }, timeout: 3), "the timer keeps ticking after the step")

        _ = try service.start(kind: "generic", attributes: [:], state: ["title": .string("second")], options: [:])
        #expect(loop.run(until: { service.publishedManager["ActiveCount"] == .uint32(2) }, timeout: 2),
                "a Start after the step is announced at once")
    }
}
