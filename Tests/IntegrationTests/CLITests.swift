import DBus
import Foundation
import Testing
import TestSupport

/// The `liveactivity` binary against the real daemon: output, typing, exit statuses.
@Suite("liveactivity CLI", .timeLimit(.minutes(5)))
struct CLITests {
    @Test func startUpdateGetListEnd() throws {
        let f = try DaemonFixture(recorderName: nil)
        let started = try f.cli(["start", "generic", "title=Backup", "progress=0.4", "--id", "backup"])
        #expect(started.status == 0, "\(started.stderr)")
        #expect(started.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "backup")

        let updated = try f.cli(["update", "backup", "progress=0.9", "body=Almost"])
        #expect(updated.status == 0, "\(updated.stderr)")

        let json = try f.cli(["get", "backup", "--json"])
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["progress"] as? Double == 0.9)
        #expect(object?["title"] as? String == "Backup")
        #expect((object?["state"] as? [String: Any])?["body"] as? String == "Almost")

        let text = try f.cli(["get", "backup"])
        #expect(text.stdout.contains("title:") && text.stdout.contains("Backup") && text.stdout.contains("90%"))

        let list = try f.cli(["list", "--json"])
        let rows = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
        #expect(rows?.first?["id"] as? String == "backup")
        #expect(rows?.first?["status"] as? String == "active")

        let ended = try f.cli(["end", "backup", "--reason", "completed"])
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(try f.client.get("backup")["reason"]?.string == "completed")
    }

    /// Issue 30: `list --json` answers from one GetManagedObjects call with every property of
    /// each activity, as `get --json` gives it, in `List`'s order (the Plasma 5.27 applet reads
    /// its rows with it, one process instead of 1 + N).
    @Test func listJSONIsEveryGetInListsOrder() throws {
        let f = try DaemonFixture(recorderName: nil)
        _ = try f.client.start("generic", state: ["title": .string("Low")], options: ["id": .string("low"), "relevance": .double(-1)])
        _ = try f.client.start("focus", attributes: ["session-type": .string("Pomodoro")], options: ["id": .string("focus")])
        _ = try f.client.start("generic", state: ["title": .string("High")], options: ["id": .string("high"), "relevance": .double(5)])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(f.cli(["list", "--json"]).stdout.utf8)) as? [[String: Any]])
        #expect(rows.compactMap { $0["id"] as? String } == (try f.client.list().map { $0[0] }), "List's order")
        for row in rows {
            let id = try #require(row["id"] as? String)
            let get = try #require(try JSONSerialization.jsonObject(with: Data(f.cli(["get", "--json", id]).stdout.utf8)) as? [String: Any])
            #expect(Set(row.keys) == Set(get.keys), "\(id): the same keys as get --json")
            #expect(row["title"] as? String == get["title"] as? String && row["kind-name"] as? String == get["kind-name"] as? String)
        }
        let text = try f.cli(["list"]).stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(text.map { $0[0] } == ["high", "focus", "low"])
        #expect(text.first == ["high", "generic", "active", "High"])
    }

    @Test func valuesAreTypedAndExplicitTypesWin() throws {
        let f = try DaemonFixture(recorderName: nil)
        _ = try f.cli(["start", "generic", "title:s=2024", "count=3", "ratio=0.5", "flag=true", "--id", "typed"])
        let state = try f.client.get("typed")["state"]?.vardict ?? [:]
        #expect(state["title"] == .string("2024"))
        #expect(state["count"]?.integer == 3)
        #expect(state["ratio"] == .double(0.5))
        #expect(state["flag"] == .boolean(true))
    }

    @Test func refusalsAndUsageErrorsExitNonZeroWithOneLine() throws {
        let f = try DaemonFixture(recorderName: nil)
        let missing = try f.cli(["update", "nosuch", "title=x"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("NotFound"))
        #expect(missing.stderr.split(separator: "\n").count == 1)

        let badKind = try f.cli(["start", "nokind"])
        #expect(badKind.status == 1)
        #expect(badKind.stderr.contains("UnknownKind"))

        let usage = try f.cli(["start"])
        #expect(usage.status == 2)
        let unknown = try f.cli(["frobnicate"])
        #expect(unknown.status == 2)
        let badOption = try f.cli(["list", "--colour"])
        #expect(badOption.status == 2 && badOption.stderr.contains("--colour"))
    }

    @Test func noDaemonIsAOneLineErrorWithItsOwnStatus() throws {
        let bus = try PrivateBus()
        let result = try runCommand(BuiltProducts.path(of: "liveactivity"), ["list"], environment: bus.environment())
        #expect(result.status == 3)
        #expect(result.stderr.contains("not running"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func everyCommandHasHelp() throws {
        for command in ["start", "update", "end", "get", "list", "toggle", "pause", "resume", "extend", "enabled", "status"] {
            let result = try runCommand(BuiltProducts.path(of: "liveactivity"), [command, "--help"], environment: [:])
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("Usage: liveactivity \(command)"), "\(command): \(result.stdout)")
        }
        let top = try runCommand(BuiltProducts.path(of: "liveactivity"), ["--help"], environment: [:])
        #expect(top.stdout.contains("Commands:"))
    }
}
