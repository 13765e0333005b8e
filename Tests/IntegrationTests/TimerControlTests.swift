import DBus
import Foundation
import Testing
import TestSupport

/// Pause, Resume, Extend and Toggle over the bus, the card buttons of a focus session, and
/// which cards are alerts (sound, pop-up) and which are routine.
@Suite("Timer controls, buttons and alerts")
struct TimerControlTests {
    static let errorPrefix = BusNames.errorPrefix

    @Test func pauseFreezesResumeContinuesExtendMovesTheEnd() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        let id = try c.start("focus", attributes: ["minutes": .uint32(25)])
        try c.call("Pause", [.string(id)])
        let paused = try c.get(id)
        #expect(paused["status"]?.string == "paused")
        #expect(paused["body"]?.string?.hasPrefix("Paused") == true, "\(paused["body"] ?? .string(""))")
        c.idle(2.1)
        let stillPaused = try c.get(id)
        #expect(stillPaused["body"] == paused["body"], "the remaining time stands still")
        #expect(stillPaused["compact-trailing"] == paused["compact-trailing"])
        #expect(c.received("StatusChanged").contains([.string(id), .string("paused")]))

        try c.call("Resume", [.string(id)])
        #expect(try c.get(id)["status"]?.string == "active")
        let resumedAt = try #require(shownSeconds(try c.get(id)["compact-trailing"]?.string))
        #expect(resumedAt == shownSeconds(paused["compact-trailing"]?.string), "resumed where it stopped")
        c.idle(2.1)
        let later = try #require(shownSeconds(try c.get(id)["compact-trailing"]?.string))
        #expect(later < resumedAt, "the countdown runs again: \(resumedAt) then \(later)")

        try c.call("Extend", [.string(id), .int64(300)])
        let extended = try #require(shownSeconds(try c.get(id)["compact-trailing"]?.string))
        #expect((298...301).contains(extended - later), "Extend 300 adds 5 min: \(later) then \(extended)")
    }

    @Test func toggleStartsThenEnds() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        let (id, started) = try c.toggle("focus", attributes: ["session-type": .string("Pomodoro")])
        #expect(started)
        #expect(try c.get(id)["status"]?.string == "active")
        #expect(try c.get(id)["attributes"]?.vardict?["minutes"]?.integer == 25)
        let (again, startedAgain) = try c.toggle("focus", attributes: ["session-type": .string("Pomodoro")])
        #expect(!startedAgain)
        #expect(again == id, "the running session is the one ended")
        #expect(try c.get(id)["status"]?.string == "ended")
        let (third, startedThird) = try c.toggle("focus")
        #expect(startedThird && third != id, "a third press starts a new session")
    }

    @Test func timerCallsOnTheWrongActivityAreRefusedClearly() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        let plain = try c.start("generic", state: ["title": .string("no timer")])
        var e = c.error { try c.call("Pause", [.string(plain)]) }
        #expect(e?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(e?.message.contains("has no timer to pause") == true, "\(e?.message ?? "")")
        e = c.error { try c.call("Extend", [.string(plain), .int64(60)]) }
        #expect(e?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(e?.message.contains("no timer") == true)

        let focus = try c.start("focus")
        e = c.error { try c.call("Resume", [.string(focus)]) }
        #expect(e?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(e?.message.contains("not paused") == true, "\(e?.message ?? "")")
        e = c.error { try c.call("Extend", [.string(focus), .int64(0)]) }
        #expect(e?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(e?.message.contains("seconds") == true)

        try c.end(focus)
        e = c.error { try c.call("Pause", [.string(focus)]) }
        #expect(e?.name == Self.errorPrefix + "NotActive")
        #expect(e?.message.contains(focus) == true)
        e = c.error { try c.call("Pause", [.string("nosuch")]) }
        #expect(e?.name == Self.errorPrefix + "NotFound")
        #expect(try c.get(plain)["status"]?.string == "active", "refusals change nothing")
    }

    @Test func focusButtonsCompleteCancelAndExtend() throws {
        let f = try DaemonFixture(recorderName: "dunst")
        let c = f.client
        let done = try c.start("focus", state: ["task": .string("write A")])
        let dropped = try c.start("focus", state: ["task": .string("write B")])
        let longer = try c.start("focus", state: ["task": .string("write C")])
        #expect(waitUntil(timeout: 5) { ["write A", "write B", "write C"].allSatisfy { !f.notifies(mentioning: $0).isEmpty } })
        let card = try #require(f.notifies(mentioning: "write A").first)
        #expect(card.actionKeys.contains("complete") && card.actionKeys.contains("cancel"), "\(card.actions)")
        let extendKey = try #require(card.actionKey(labelled: "+5 min"), "\(card.actions)")

        let before = try #require(shownSeconds(try c.get(longer)["compact-trailing"]?.string))
        f.recorder?.invokeAction(id: card.assignedID, key: "complete")
        f.recorder?.invokeAction(id: try #require(f.notifies(mentioning: "write B").first?.assignedID), key: "cancel")
        f.recorder?.invokeAction(id: try #require(f.notifies(mentioning: "write C").first?.assignedID), key: extendKey)

        #expect(c.waitFor(timeout: 5) { c.received("ActivityEnded").count == 2 })
        #expect(c.received("ActivityEnded").contains([.string(done), .string("completed")]))
        #expect(c.received("ActivityEnded").contains([.string(dropped), .string("cancelled")]))
        #expect(try c.get(done)["reason"]?.string == "completed")
        #expect(try c.get(dropped)["reason"]?.string == "cancelled")
        #expect(c.waitFor(timeout: 3) { c.received("ActionInvoked").contains([.string(longer), .string(extendKey)]) })
        let after = try #require(shownSeconds(try c.get(longer)["compact-trailing"]?.string))
        #expect((295...301).contains(after - before), "+5 min: \(before) then \(after)")
        #expect(try c.get(longer)["status"]?.string == "active")
    }

    @Test func updateAlertsPopUpWithSoundAndRoutineUpdatesStaySilent() throws {
        let f = try DaemonFixture(recorderName: "dunst")
        let c = f.client
        let id = try c.start("generic", state: ["title": .string("Build"), "progress": .double(0.1)])
        #expect(f.waitForNotifies(1))
        for step in 2...3 {
            Thread.sleep(forTimeInterval: 1.1)
            try c.update(id, ["progress": .double(Double(step) / 10)])
            #expect(f.waitForNotifies(step))
        }
        Thread.sleep(forTimeInterval: 1.1)
        try c.update(id, ["title": .string("Build failed")],
                     options: ["alert-title": .string("Tests failed"), "alert-body": .string("3 of 120 failed"),
                               "alert-sound": .string("dialog-warning")])
        #expect(f.waitForNotifies(4))
        Thread.sleep(forTimeInterval: 1.1)
        try c.update(id, ["progress": .double(0.9)])
        #expect(f.waitForNotifies(5))

        let calls = f.recorder?.calls ?? []
        #expect(Set(calls.map(\.assignedID)).count == 1, "one card throughout")
        let alerts = calls.filter { !$0.isRoutine }
        #expect(alerts.count == 1, "only the Update with alert options is an alert")
        let alert = try #require(alerts.first)
        #expect(alert.summary == "Tests failed")
        #expect(alert.body.contains("3 of 120 failed"))
        #expect(alert.hints["sound-name"] == .string("dialog-warning"))
        #expect(alert.hints["urgency"] == .byte(1))
        for routine in calls where routine.summary != "Tests failed" {
            #expect(routine.hints["sound-name"] == nil && routine.hints["suppress-sound"] == .boolean(true))
        }
        #expect(calls.last?.summary == "Tests failed", "within 15 s a routine update keeps the alert's text on the card")
        #expect(calls.last?.hints["value"] == .int32(90), "while the state below it moves on")

        // When the hold ends, the card shows the state again without any call from the client.
        #expect(f.waitForNotifies(6, timeout: 20))
        #expect(f.recorder?.calls.last?.summary == "Build failed")
        #expect(f.recorder?.calls.last?.isRoutine == true)
    }
}
