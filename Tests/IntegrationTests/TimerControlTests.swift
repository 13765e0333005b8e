import DBus
import Foundation
import Testing
import TestSupport

/// Toggle and timer calls over the bus, and the card buttons of a focus session. (Pause,
/// Resume and Extend over time, and the alert held on a ticking card, are in-process tests
/// with a manual clock: ServiceTimerTests, AlertHoldTests.)
@Suite("Timer controls, buttons and alerts", .timeLimit(.minutes(5)))
struct TimerControlTests {
    static let errorPrefix = BusNames.errorPrefix

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
}
