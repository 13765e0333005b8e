import DBus
import Foundation
import Testing
import TestSupport

/// Scheduled starts and updates through the real CLI and daemon: `--at` takes human times,
/// the bus carries unix seconds, and `scheduled` lists what waits. The moments themselves are
/// proven in-process with a manual clock (ScheduledStartTests, ScheduledUpdateTests); here
/// they are hours away, so nothing can come due during the test.
@Suite("scheduled starts and updates in the CLI", .timeLimit(.minutes(5)))
struct ScheduledCLITests {
    func cli(_ f: DaemonFixture, _ arguments: [String]) throws -> CommandResult {
        var env = f.daemon.environment
        env["TZ"] = "UTC"
        return try runCommand(BuiltProducts.path(of: "liveactivity"), arguments, environment: env, timeout: 20)
    }

    /// Issue 28, row 8: `get` of a focus session an hour ahead said `Scheduled · · 0m focused`.
    @Test func aFocusSessionAnHourAheadShowsWhenItStartsNotZeroMinutesFocused() throws {
        let f = try DaemonFixture(recorderName: nil)
        let started = try cli(f, ["start", "focus", "session-type=Pomodoro", "--at", "+1h", "--id", "soon"])
        #expect(started.status == 0, "\(started.stderr)")
        let shown = try cli(f, ["get", "soon"])
        #expect(!shown.stdout.contains("focused"), "\(shown.stdout)")
        #expect(shown.stdout.contains("Starts at ") && shown.stdout.contains("25:00 left"), "\(shown.stdout)")
    }

    @Test func startAtPendsAndUpdateAtSchedulesListsAndCancels() throws {
        let f = try DaemonFixture(recorderName: nil)
        let before = Int64(Date().timeIntervalSince1970)
        let started = try cli(f, ["start", "focus", "session-type=Pomodoro", "--at", "+2h", "--id", "later"])
        #expect(started.status == 0, "\(started.stderr)")
        let pending = try f.client.get("later")
        #expect(pending["status"]?.string == "pending")
        let startedAt = try #require(pending["started-at"]?.integer)
        #expect(abs(startedAt - (before + 7_200)) <= 5, "--at +2h is two hours from now: \(startedAt - before)")
        #expect(try cli(f, ["list"]).stdout.contains("pending"))

        #expect(try cli(f, ["start", "generic", "title=Build", "--id", "build"]).status == 0)
        #expect(try cli(f, ["update", "build", "title=Deploy", "--at", "+3h"]).status == 0)
        #expect(try cli(f, ["update", "build", "title=Tests", "--at", "+1h", "--alert-title", "Tests"]).status == 0)
        let listed = try cli(f, ["scheduled", "build"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines.first?.contains("title=Tests") == true && lines.first?.contains("alert-title=Tests") == true,
                "earliest first, with its options: \(listed.stdout)")
        #expect(lines.last?.contains("title=Deploy") == true)
        #expect(try f.client.get("build")["title"]?.string == "Build", "nothing applied yet")

        let json = try cli(f, ["scheduled", "build", "--json"])
        let rows = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[Any]]
        let firstTime = try #require(rows?.first?.first as? Int64)
        #expect(!listed.stdout.contains(String(firstTime)), "times show as local dates, not unix seconds: \(listed.stdout)")
        #expect(try cli(f, ["update", "build", "--cancel-at", String(firstTime)]).status == 0)
        #expect(try cli(f, ["scheduled", "build"]).stdout.split(separator: "\n").count == 1)
        let missing = try cli(f, ["update", "build", "--cancel-at", String(firstTime)])
        #expect(missing.status != 0 && missing.stderr.contains("has no scheduled update at"), "\(missing.stderr)")
        #expect(try cli(f, ["update", "build", "--cancel-all"]).status == 0)
        #expect(try cli(f, ["scheduled", "build"]).stdout.contains("no scheduled updates"))

        #expect(try cli(f, ["end", "later"]).status == 0)
        #expect(try !cli(f, ["list"]).stdout.contains("later"), "End cancels a pending activity")
    }
}
