import DBus
import Foundation
import Testing
import TestSupport

/// Human times through the real CLI and daemon: the bus carries unix seconds, and the time
/// zone is the process's own (TZ), read through the C library.
@Suite("human times in the CLI", .timeLimit(.minutes(5)))
struct HumanTimeCLITests {
    func cli(_ f: DaemonFixture, _ arguments: [String], timeZone: String) throws -> CommandResult {
        var env = f.daemon.environment
        env["TZ"] = timeZone
        return try runCommand(BuiltProducts.path(of: "liveactivity"), arguments, environment: env, timeout: 20)
    }

    @Test func aFastBegunAtEightLastNight() throws {
        let f = try DaemonFixture(recorderName: nil)
        let started = try cli(f, ["start", "fasting", "protocol=16:8", "start-time=20:00", "--id", "fast"], timeZone: "UTC")
        #expect(started.status == 0, "\(started.stderr)")
        let now = Int64(Date().timeIntervalSince1970)
        let today = now - now % 86_400 + 20 * 3_600
        let expected = today > now ? today - 86_400 : today
        #expect(try f.client.get("fast")["attributes"]?.vardict?["start-time"]?.integer == expected)
    }

    @Test func isoTimesWithoutOffsetAreLocalIncludingDSTEdges() throws {
        let f = try DaemonFixture(recorderName: nil)
        let berlin = "Europe/Berlin"
        #expect(try cli(f, ["start", "generic", "title=x", "timer-start=2026-07-01T12:00", "timer-end=2026-07-01T12:30",
                            "--stale-at", "2026-03-29 02:30", "--id", "summer"], timeZone: berlin).status == 0)
        let activity = try f.client.get("summer")
        #expect(activity["attributes"]?.vardict?["timer-start"]?.integer == 1_782_900_000, "12:00 CEST is 10:00 UTC")
        #expect(activity["attributes"]?.vardict?["timer-end"]?.integer == 1_782_901_800)
        #expect(activity["stale-at"]?.integer == 1_774_747_800, "02:30 does not exist that night: 03:30 CEST")
    }

    @Test func aBadTimeIsAUsageErrorNamingTheForms() throws {
        let f = try DaemonFixture(recorderName: nil)
        let result = try cli(f, ["start", "fasting", "start-time=last night"], timeZone: "UTC")
        #expect(result.status == 2)
        #expect(result.stderr.contains("start-time=last night: expected a time: unix seconds"))
        #expect(result.stderr.contains("yesterday") && result.stderr.contains("ISO 8601"))
        let extend = try cli(f, ["extend", "x", "five minutes"], timeZone: "UTC")
        #expect(extend.status == 2 && extend.stderr.contains("expected a duration"))
    }
}
