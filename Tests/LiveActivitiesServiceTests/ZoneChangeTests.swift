import Foundation
import Glibc
import Testing
import TestSupport
import ActivityModel
import LiveActivitiesService

/// Issue 18, point 9, first bullet: the daemon read the zone with `localtime_r`, which never
/// reads it again (`tzset`), so a zone change was not seen until a restart. The change is made
/// in a child process (this test binary, running only `ZoneChangeProbe`), so no other test of
/// this process sees the process's TZ move.
@Suite(.timeLimit(.minutes(5))) struct ZoneChangeTests {
    static let probeVariable = "LIVEACTIVITIES_ZONE_PROBE"

    @Test func aZoneChangeIsSeenWithoutARestart() throws {
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var environment = ProcessInfo.processInfo.environment
        environment[Self.probeVariable] = "1"
        environment["TZ"] = "UTC0"
        let run = try runCommand(binary, ["--testing-library", "swift-testing", "--filter", "ZoneChangeProbe"],
                                 environment: environment)
        #expect(run.status == 0, "the probe saw the new zone:\n\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("ZoneChangeProbe") || run.stderr.contains("ZoneChangeProbe"), "the probe ran")
    }
}

/// The child half of `ZoneChangeTests`: does nothing unless started by it.
@Suite(.timeLimit(.minutes(5))) struct ZoneChangeProbe {
    @Test func theOffsetFollowsTZWithoutAnExplicitTzset() {
        guard ProcessInfo.processInfo.environment[ZoneChangeTests.probeVariable] == "1" else { return }
        let time = 1_767_225_600.0
        #expect(SystemTimeZone.utcOffset(at: time) == 0, "started in UTC")
        setenv("TZ", "JST-9", 1)
        #expect(SystemTimeZone.utcOffset(at: time) == 32_400, "the daemon's next reading is in the new zone")
        setenv("TZ", "IST-5:30", 1)
        #expect(SystemTimeZone.utcOffset(at: time) == 19_800)
    }
}
