import Foundation
import Testing
import TestSupport
import ActivityModel
import LiveActivitiesService

/// The daemon's local UTC offset (cards show local clock times): the same as Foundation's
/// `TimeZone` over a year of zones with summer time, and right at the very second of each change.
/// The zone (`TZ`) is process-wide, so each check runs in a test process of its own started with
/// `TZ` set (`LocalTimeInZoneTests`); this process's zone never changes.
@Suite(.timeLimit(.minutes(5))) struct LocalTimeTests {
    /// Runs the checks of `LocalTimeInZoneTests` named `test` in a new process of this test
    /// bundle, with `TZ=zone` and `LIVEACTIVITIES_ZONE_CHECK=check`; returns its output.
    static func inOwnProcess(_ test: String, zone: String, check: String) throws -> CommandResult {
        // This process's own image, even when a rebuild replaced the file meanwhile.
        let bundle = "/proc/\(getpid())/exe"
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = zone
        environment["LIVEACTIVITIES_ZONE_CHECK"] = check
        return try runCommand(bundle, ["--testing-library", "swift-testing", "--filter", "LocalTimeInZoneTests/\(test)"],
                              environment: environment, timeout: 60)
    }

    @Test(arguments: [("CET-1CEST,M3.5.0,M10.5.0/3", "Europe/Berlin"), ("EST5EDT,M3.2.0,M11.1.0", "America/New_York")])
    func matchesFoundationOverAYear(rule: String, identifier: String) throws {
        let result = try Self.inOwnProcess("matchesFoundationOverAYear", zone: rule, check: identifier)
        #expect(result.status == 0 && (result.stdout + result.stderr).contains("Test run with 1 test"), "\(result.stdout)\(result.stderr)")
    }

    @Test(arguments: ["CET-1CEST,M3.5.0,M10.5.0/3", "IST-5:30", "UTC0"])
    func followsTheZoneAtTheGivenInstant(zone: String) throws {
        let result = try Self.inOwnProcess("followsTheZoneAtTheGivenInstant", zone: zone, check: "instants")
        #expect(result.status == 0 && (result.stdout + result.stderr).contains("Test run with 1 test"), "\(result.stdout)\(result.stderr)")
    }

    @Test func nowIsTheWallClock() {
        #expect(abs(LocalTime.now() - Date().timeIntervalSince1970) < 1)
    }
}

/// The checks `LocalTimeTests` runs in a process of its own, whose `TZ` was set when it
/// started; off (skipped) in every other run.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["LIVEACTIVITIES_ZONE_CHECK"] != nil,
                 "runs only in the process LocalTimeTests starts with TZ set"),
       .timeLimit(.minutes(5)))
struct LocalTimeInZoneTests {
    /// 2026-01-01T00:00:00Z.
    static let newYear2026 = 1_767_225_600.0
    static let environment = ProcessInfo.processInfo.environment

    /// Every 6 hours of 2026 in this process's zone, written as a POSIX rule (read by the C
    /// library), compared with Foundation's own time-zone data for the same place (the check):
    /// the offsets must agree, and both standard and summer time must have been seen.
    @Test func matchesFoundationOverAYear() throws {
        let identifier = try #require(Self.environment["LIVEACTIVITIES_ZONE_CHECK"])
        let foundation = try #require(TimeZone(identifier: identifier))
        var seen = Set<Double>()
        for step in 0..<(365 * 4) {
            let time = Self.newYear2026 + Double(step) * 6 * 3600 + 1234.5
            let expected = Double(foundation.secondsFromGMT(for: Date(timeIntervalSince1970: time)))
            #expect(SystemTimeZone.utcOffset(at: time) == expected, "\(identifier) at \(time)")
            seen.insert(SystemTimeZone.utcOffset(at: time))
        }
        #expect(seen.count == 2, "standard and summer time: \(seen.sorted())")
        #expect(!seen.contains(0))
    }

    /// The offsets at given instants, per zone (rules written out, so no tz database is needed).
    @Test func followsTheZoneAtTheGivenInstant() throws {
        let zone = try #require(Self.environment["TZ"])
        switch zone {
        case "CET-1CEST,M3.5.0,M10.5.0/3":
            // CEST from the last Sunday of March, 01:00 UTC, to the last Sunday of October, 01:00 UTC.
            let springForward = 1_774_746_000.0 // 2026-03-29T01:00:00Z
            let fallBack = 1_792_890_000.0 // 2026-10-25T01:00:00Z
            #expect(SystemTimeZone.utcOffset(at: Self.newYear2026) == 3600)
            #expect(SystemTimeZone.utcOffset(at: springForward - 1) == 3600)
            #expect(SystemTimeZone.utcOffset(at: springForward) == 7200)
            #expect(SystemTimeZone.utcOffset(at: fallBack - 0.5) == 7200)
            #expect(SystemTimeZone.utcOffset(at: fallBack) == 3600)
        case "IST-5:30":
            #expect(SystemTimeZone.utcOffset(at: Self.newYear2026) == 19_800)
        case "UTC0":
            #expect(SystemTimeZone.utcOffset(at: Self.newYear2026) == 0)
        default:
            Issue.record("no expectations for TZ=\(zone)")
        }
    }
}
