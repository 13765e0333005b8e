import DBus
import Foundation
import Testing
import TestSupport

/// What the panels (GNOME extension, Plasma applet, tray menu) read and call: each activity's
/// `Actions`, the manager's `InvokeAction`, the tray item's `Title`, and `liveactivity action`.
@Suite("Panel API: Actions, InvokeAction, tray Title", .timeLimit(.minutes(5)))
struct PanelAPITests {
    static let errorPrefix = "io.github.liveactivities.LiveActivities1.Error."

    /// `Actions` as `[[key, label]]`, read from the activity object.
    static func actions(_ c: TestClient, _ id: String) throws -> [[String]] {
        try rows(c.property("Actions", path: "/io/github/liveactivities/LiveActivities1/activity/\(id)",
                            interface: TestClient.activityInterface))
    }

    static func rows(_ value: DBusValue?) -> [[String]] {
        guard case .array(_, let rows)? = value else { return [] }
        return rows.map { row in
            guard case .structure(let fields) = row else { return [] }
            return fields.map { $0.string ?? "?" }
        }
    }

    @Test func actionsAreTheKindsButtonsThenPauseOrResumeThenEndUnlessAKindButtonEnds() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        let focus = try c.start("focus", attributes: ["minutes": .uint32(25)])
        let focusActions = [["complete", "Complete"], ["cancel", "Cancel"], ["extend:300", "+5 min"],
                            ["pause", "Pause"]]
        #expect(try Self.actions(c, focus) == focusActions, "Complete and Cancel end it: no second End")
        #expect(Self.rows(try c.get(focus)["actions"]) == focusActions, "Get key actions")

        let fast = try c.start("fasting", attributes: ["protocol": .string("16:8")])
        #expect(try Self.actions(c, fast) == [["complete", "End fast"], ["cancel", "Cancel"], ["pause", "Pause"]])
        let plain = try c.start("generic", state: ["title": .string("Build")])
        #expect(try Self.actions(c, plain) == [["end", "End"]], "no timer: no Pause")
        let timed = try c.start("generic", attributes: ["timer-end": .int64(Int64(Date().timeIntervalSince1970) + 600)])
        #expect(try Self.actions(c, timed) == [["pause", "Pause"], ["end", "End"]])

        try c.call("Pause", [.string(focus)])
        let pausedActions = [["complete", "Complete"], ["cancel", "Cancel"], ["extend:300", "+5 min"],
                             ["resume", "Resume"]]
        #expect(try Self.actions(c, focus) == pausedActions)
        let focusPath = "/io/github/liveactivities/LiveActivities1/activity/\(focus)"
        func announced() -> [[[String]]] {
            c.signals.filter { $0.member == "PropertiesChanged" && $0.path == focusPath }.compactMap { message in
                guard let arguments = try? message.arguments(), arguments.count == 3,
                      let changed = arguments[1].vardict, let value = changed["Actions"] else { return nil }
                return Self.rows(value.unwrapped)
            }
        }
        #expect(c.waitFor { announced().contains(pausedActions) }, "PropertiesChanged carries Actions: \(announced())")

        try c.end(focus)
        #expect(try Self.actions(c, focus) == [], "an ended activity has no buttons")
    }

    @Test func invokeActionDoesWhatTheCardButtonDoes() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        let id = try c.start("focus", attributes: ["minutes": .uint32(25)])
        try c.call("InvokeAction", [.string(id), .string("pause")])
        #expect(try c.get(id)["status"]?.string == "paused")
        try c.call("InvokeAction", [.string(id), .string("resume")])
        #expect(try c.get(id)["status"]?.string == "active")
        let before = try c.get(id)["attributes"]
        try c.call("InvokeAction", [.string(id), .string("extend:300")])
        #expect(try c.get(id)["status"]?.string == "active")
        #expect(try c.get(id)["attributes"] == before, "Extend moves the timer, not the attributes")
        try c.call("InvokeAction", [.string(id), .string("complete")])
        #expect(try c.get(id)["status"]?.string == "ended")
        #expect(try c.get(id)["reason"]?.string == "completed")
        #expect(c.waitFor { c.received("ActivityEnded").contains([.string(id), .string("completed")]) })
        #expect(c.received("ActionInvoked") == [[.string(id), .string("pause")], [.string(id), .string("resume")],
                                                 [.string(id), .string("extend:300")], [.string(id), .string("complete")]])

        let other = try c.start("generic", state: ["title": .string("Build")])
        try c.call("InvokeAction", [.string(other), .string("end")])
        #expect(try c.get(other)["status"]?.string == "ended")
        #expect(try c.get(other)["reason"]?.string == "ended")
    }

    @Test func customActionsAreAnnouncedAndChangeNothing() throws {
        let kind = """
        {"name": "chores", "display-name": "Chores", "templates": {"title": "Dishes"},
         "buttons": [{"action": "custom", "key": "snooze", "label": "Snooze"}]}
        """
        let bus = try PrivateBus()
        let daemon = try DaemonProcess(bus: bus, environment: ["LIVEACTIVITIES_NO_CARDS": "1"], start: false)
        let kinds = daemon.configDirectory.appendingPathComponent("kinds")
        try FileManager.default.createDirectory(at: kinds, withIntermediateDirectories: true)
        try kind.write(to: kinds.appendingPathComponent("chores.json"), atomically: true, encoding: .utf8)
        try daemon.start()
        let c = try TestClient(bus: bus)
        let id = try c.start("chores")
        #expect(try Self.actions(c, id) == [["snooze", "Snooze"], ["end", "End"]])
        try c.call("InvokeAction", [.string(id), .string("snooze")])
        #expect(c.waitFor { c.received("ActionInvoked") == [[.string(id), .string("snooze")]] })
        #expect(try c.get(id)["status"]?.string == "active")
    }

    @Test func refusedActionsSayWhyAndChangeNothing() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        let id = try c.start("focus")
        var e = c.error { try c.call("InvokeAction", [.string(id), .string("resume")]) }
        #expect(e?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(e?.message == "action \"resume\": activity \"\(id)\" offers complete, cancel, extend:300, pause")
        e = c.error { try c.call("InvokeAction", [.string(id), .string("snooze")]) }
        #expect(e?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        e = c.error { try c.call("InvokeAction", [.string("nosuch"), .string("end")]) }
        #expect(e?.name == Self.errorPrefix + "NotFound")
        e = c.error { try c.call("InvokeAction", [.string("bad id!"), .string("end")]) }
        #expect(e?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(try c.get(id)["status"]?.string == "active", "refusals change nothing")
        #expect(c.received("ActionInvoked").isEmpty)

        try c.end(id)
        e = c.error { try c.call("InvokeAction", [.string(id), .string("end")]) }
        #expect(e?.name == Self.errorPrefix + "NotActive")
        #expect(e?.message == "activity \"\(id)\" is ended; only live activities have actions")
    }

    @Test func trayTitleIsTheCompactText() throws {
        let w = try TrayTests.World(watcherFirst: true)
        let c = w.client
        #expect(try w.item("Title").string == "Live Activities", "nothing live: the app's name")
        _ = try c.start("generic", state: ["title": .string("Backup"), "progress": .double(0.4)], options: ["id": .string("backup")])
        #expect(c.waitFor { c.received("NewTitle").count == 1 })
        #expect(try w.item("Title").string == "Backup 40%")
        #expect(try c.property("CompactText").string == "Backup 40%")
        try c.update("backup", ["progress": .double(0.5)])
        #expect(c.waitFor { c.received("NewTitle").count == 2 })
        #expect(try w.item("Title").string == "Backup 50%")
        try c.end("backup")
        #expect(c.waitFor { c.received("NewTitle").count == 3 })
        #expect(try w.item("Title").string == "Live Activities")
    }

    @Test func cliListsAndPressesButtons() throws {
        let f = try DaemonFixture(recorderName: nil)
        let id = try f.client.start("focus")
        let listed = try f.cli(["action", id])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout == "complete\tComplete\ncancel\tCancel\nextend:300\t+5 min\npause\tPause\n")
        let shown = try f.cli(["get", id])
        #expect(shown.stdout.contains("actions:           Complete (complete), Cancel (cancel), +5 min (extend:300), Pause (pause)\n"),
                "\(shown.stdout)")
        let paused = try f.cli(["action", id, "pause"])
        #expect(paused.status == 0, "\(paused.stderr)")
        #expect(try f.client.get(id)["status"]?.string == "paused")
        let refused = try f.cli(["action", id, "pause"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("offers complete, cancel, extend:300, resume"), "\(refused.stderr)")
    }
}
