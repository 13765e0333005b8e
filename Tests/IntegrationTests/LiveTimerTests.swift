import DBus
import Foundation
import Testing
import TestSupport

/// Timers the daemon runs by itself: after Start no client calls again, yet sessions complete,
/// phases change with their alert, and properties follow the ticks.
@Suite("Live timers on a private bus", .timeLimit(.minutes(5)))
struct LiveTimerTests {
    @Test func focusSessionCompletesByItselfWithItsAlert() throws {
        let f = try DaemonFixture(recorderName: "dunst")
        let c = f.client
        // A one-minute session that began 57 s ago: about 3 s left.
        let id = try c.start("focus", attributes: ["minutes": .uint32(1), "start-time": .int64(Clock.now - 57)])
        #expect(try c.get(id)["status"]?.string == "active")

        let ended = c.waitFor(timeout: 10) { c.received("ActivityEnded").contains { $0.first == .string(id) } }
        #expect(ended, "the session ends by itself")
        #expect(c.received("ActivityEnded").first { $0.first == .string(id) } == [.string(id), .string("completed")])
        let properties = try c.get(id)
        #expect(properties["status"]?.string == "ended")
        #expect(properties["reason"]?.string == "completed")

        #expect(waitUntil(timeout: 3) { !f.notifies(mentioning: "Focus session completed!").isEmpty },
                "the alert reaches the server: \(f.recorder?.calls.map(\.summary) ?? [])")
        let alert = try #require(f.notifies(mentioning: "Focus session completed!").last)
        #expect(alert.hints["sound-name"] == .string("complete"), "focus.json asks for the sound \"complete\"")
        #expect(alert.hints["suppress-sound"] == nil)
        #expect(alert.hints["urgency"] == .byte(1), "an alert goes at normal urgency")
        #expect(alert.replacesID != 0, "the alert replaces the session's card in place")
        #expect(alert.actionKeys.isEmpty, "an ended card has no buttons")
    }

    @Test func fastingChangesPhaseWithAnAlert() throws {
        let f = try DaemonFixture(recorderName: "dunst")
        let c = f.client
        // A one-hour fast whose goal is 3 s ahead.
        let id = try c.start("fasting", attributes: ["fasting-hours": .uint32(1), "start-time": .int64(Clock.now - 3600 + 3)])
        let path = TestClient.activityPath(id)
        #expect(try c.property("Title", path: path, interface: TestClient.activityInterface).string == "Fasting")
        #expect(f.waitForNotifies(1))
        let first = try #require(f.recorder?.calls.first)
        #expect(first.isRoutine)

        let titled = c.waitFor(timeout: 10) {
            c.propertiesChanged(id).contains { $0["Title"]?.string == "Eating window" }
        }
        #expect(titled, "PropertiesChanged carries the new phase's title")
        #expect(try c.property("Title", path: path, interface: TestClient.activityInterface).string == "Eating window")
        let body = try c.property("Body", path: path, interface: TestClient.activityInterface).string ?? ""
        #expect(body.contains("Goal of 1h reached"), "the eating window's body: \(body)")
        #expect(try c.get(id)["status"]?.string == "active", "a fast goes on until the user ends it")

        #expect(waitUntil(timeout: 3) { !f.notifies(mentioning: "Fasting goal reached").isEmpty })
        let alert = try #require(f.notifies(mentioning: "Fasting goal reached").first)
        #expect(!alert.isRoutine, "a phase change is an alert")
        #expect(alert.hints["sound-name"] == .string("complete"))
        #expect(alert.hints["urgency"] == .byte(1))
        #expect(alert.replacesID == first.assignedID, "the same card pops up again")
        #expect(alert.body.contains("You fasted 1h."), "\(alert.body)")
    }
}
