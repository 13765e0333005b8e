import DBus
import Foundation
import Testing
import TestSupport

/// Segments and points on the bus: the `Segments`, `Points` and `SegmentText` properties a
/// panel draws from, live as time passes, refused when malformed, kept across a SIGKILL, and the
/// card's text on servers that draw the `value` hint and on those that do not.
@Suite("Segments on the bus", .timeLimit(.minutes(3)))
struct SegmentBusTests {
    /// `(label, share, state, fill)` of each element of a `segments` value.
    private func segments(_ value: DBusValue?) -> [(String, Double, String, Double)] {
        guard case .array(_, let rows)? = value else { return [] }
        return rows.compactMap { row in
            guard case .structure(let f) = row, f.count == 4, let label = f[0].string, let share = f[1].double,
                  let state = f[2].string, let fill = f[3].double else { return nil }
            return (label, share, state, fill)
        }
    }

    private func states(_ value: DBusValue?) -> [String] { segments(value).map(\.2) }

    @Test func aBuildInFiveStepsIsOnTheBus() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        let id = try c.start("generic", state: ["title": .string("Build"), "steps": .int32(5), "step": .int32(2)])
        let reply = try c.get(id)
        #expect(states(reply["segments"]) == ["done", "current", "upcoming", "upcoming", "upcoming"])
        #expect(segments(reply["segments"]).map(\.0) == ["Step 1", "Step 2", "Step 3", "Step 4", "Step 5"])
        #expect(segments(reply["segments"]).allSatisfy { abs($0.1 - 0.2) < 1e-9 })
        #expect(reply["segment-text"]?.string == "Step 2 · step 2 of 5 · then Step 3")
        let path = "/io/github/liveactivities/LiveActivities1/activity/\(id)"
        let property = try c.property("Segments", path: path, interface: "io.github.liveactivities.LiveActivities1.Activity")
        #expect(states(property) == states(reply["segments"]), "the property and Get agree")
        try c.update(id, ["step": .int32(5)])
        #expect(states(try c.get(id)["segments"]) == ["done", "done", "done", "done", "current"])
    }

    @Test func theCLIStartsABuildInStepsAndShowsThem() throws {
        let f = try DaemonFixture(recorderName: nil)
        let started = try f.cli(["start", "generic", "title=Build", "steps=5", "step=2", "--id", "build"])
        #expect(started.status == 0, "\(started.stderr)")
        #expect(states(try f.client.get("build")["segments"]) == ["done", "current", "upcoming", "upcoming", "upcoming"])
        let shown = try f.cli(["get", "build"])
        #expect(shown.stdout.contains("Step 1 20% done | Step 2 20% current | Step 3 20% upcoming"), "\(shown.stdout)")
        let refused = try f.cli(["update", "build", "step=9"])
        #expect(refused.status != 0 && refused.stderr.contains("InvalidArgs: state key \"step\": expected a step from 1 to 5, got integer 9"),
                "\(refused.stderr)")
    }

    @Test func badSegmentsAreInvalidArgsAndChangeNothing() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        let refusal = c.error { _ = try c.start("generic", state: ["segments": .string("A:0.5|B:0.2")]) }
        #expect(refusal?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(refusal?.message == "state key \"segments\": the shares sum to 0.7; expected 1")
        #expect(try c.list().isEmpty)
        let id = try c.start("generic", state: ["steps": .int32(3), "step": .int32(1)])
        let before = try c.get(id)
        #expect(c.error { try c.update(id, ["step": .int32(4)]) }?.message == "state key \"step\": expected a step from 1 to 3, got integer 4")
        #expect(try c.get(id)["state"] == before["state"])
    }

    @Test func aFastMovesIntoItsEatingWindowOnTheBus() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        // Started 16 h minus 2 s ago: the fasting segment is current, then the boundary passes.
        let start = Date().timeIntervalSince1970 - 16 * 3600 + 2
        let id = try c.start("fasting", attributes: ["protocol": .string("16:8"), "start-time": .double(start)])
        let first = try c.get(id)
        #expect(states(first["segments"]) == ["current", "upcoming"])
        let shares = segments(first["segments"]).map(\.1)
        #expect(shares.count == 2 && abs(shares[0] - 2.0 / 3) < 1e-9 && abs(shares[1] - 1.0 / 3) < 1e-9)
        guard case .array(_, let points)? = first["points"], case .structure(let point)? = points.first else {
            Issue.record("no point")
            return
        }
        #expect(abs((point[0].double ?? 0) - 2.0 / 3) < 1e-9 && point[1].string == "Eating window")
        #expect(c.waitFor(timeout: 6) { (try? c.get(id)).map { self.states($0["segments"]) } == ["done", "current"] },
                "the eating window becomes current by itself")
        #expect(try c.get(id)["segment-text"]?.string == "Eating window 0m of 8h")
    }

    @Test func segmentsSurviveSIGKILL() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        let id = try c.start("generic", state: ["title": .string("Deploy"), "segments": .string("Fetch:0.2|Build:0.5|Test:0.3"),
                                                "step": .int32(2), "points": .string("0.9:Review")],
                             options: ["id": .string("deploy")])
        let before = try c.get(id)
        f.daemon.kill()
        try f.daemon.start()
        let after = try c.get(id)
        #expect(segments(after["segments"]).map(\.0) == ["Fetch", "Build", "Test"])
        #expect(states(after["segments"]) == ["done", "current", "upcoming"])
        #expect(after["segments"] == before["segments"] && after["points"] == before["points"])
    }

    @Test func valueHintServersKeepTheBarAndGainTheSegmentText() throws {
        let f = try DaemonFixture(recorderName: "dunst")
        _ = try f.client.start("generic", state: ["title": .string("Build"), "steps": .int32(5), "step": .int32(3)])
        #expect(f.waitForNotifies(1))
        let card = try #require(f.recorder?.calls.first)
        #expect(card.hints["value"] == .int32(40), "the bar shows where the build is")
        #expect(card.body.contains("Step 3 · step 3 of 5 · then Step 4"))
    }

    /// Issue 28, row 7: a right-to-left override in a label reversed the rest of `SegmentText`
    /// and of the card's body; a label of zero-width spaces passed. Now the label is isolated
    /// (FSI … PDI) where it stands among our words, and an invisible one is InvalidArgs.
    @Test func aRightToLeftOverrideInALabelDoesNotReverseTheCardOrSegmentText() throws {
        let f = try DaemonFixture(recorderName: "dunst")
        let c = f.client
        let id = try c.start("generic", state: ["title": .string("Deploy"), "segments": .string("\u{202E}ok:0.5|B:0.5"),
                                                "progress": .double(0.25)])
        #expect(try c.get(id)["segment-text"]?.string == "\u{2068}\u{202E}ok\u{2069} · then B")
        #expect(f.waitForNotifies(1))
        let card = try #require(f.recorder?.calls.first)
        #expect(card.body.contains("\u{2068}\u{202E}ok\u{2069} · then B"), "\(card.body.debugDescription)")
        let refusal = c.error { _ = try c.start("generic", state: ["segments": .string("\u{200B}\u{200B}:0.5|B:0.5")]) }
        #expect(refusal?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(refusal?.message == "state key \"segments\": segment 1: the label holds no visible character (U+200B U+200B); "
                + "expected text such as \"Build\"")
        #expect(try c.list().count == 1, "the refused Start changed nothing")
    }

    @Test func textCardsDrawABarWithBoundaries() throws {
        let f = try DaemonFixture(recorderName: "notification-daemon")
        _ = try f.client.start("generic", state: ["title": .string("Build"), "steps": .int32(4), "step": .int32(2)])
        #expect(f.waitForNotifies(1))
        let card = try #require(f.recorder?.calls.first)
        #expect(card.hints["value"] == nil)
        #expect(card.body.contains("▰▰▰▰▰│▱▱▱▱▱│▱▱▱▱▱│▱▱▱▱▱"))
    }

    @Test func oneSegmentIsThePlainBar() throws {
        let f = try DaemonFixture(recorderName: "notification-daemon")
        let id = try f.client.start("focus", attributes: ["session-type": .string("Pomodoro")])
        #expect(f.waitForNotifies(1))
        let card = try #require(f.recorder?.calls.first)
        #expect(card.body.hasSuffix("\n▱▱▱▱▱▱▱▱▱▱ 0%"), "a focus session's one segment adds nothing to its card")
        #expect(segments(try f.client.get(id)["segments"]).map(\.0) == ["Focus"], "the bus still has it")
    }
}
