import DBus
import Foundation
import Testing
import TestSupport

/// The card as the notification server receives it, asserted call by call on a recorder.
@Suite("Cards on a recording notification server", .timeLimit(.minutes(5)))
struct CardTests {
    @Test func oneNotificationReplacedInPlaceWithTypedHints() throws {
        let f = try DaemonFixture(recorderName: "dunst", config: "min-notify-interval = 0.1\n")
        let c = f.client
        let id = try c.start("generic", state: ["title": .string("Build & <test>"), "body": .string("a < b & c"),
                                                "progress": .double(0.25)])
        #expect(f.waitForNotifies(1))
        let first = try #require(f.recorder?.calls.first)
        #expect(first.replacesID == 0)
        #expect(first.summary.contains("Build & <test>"), "the summary is plain text")
        #expect(first.body.contains("a &lt; b &amp; c"), "client text is escaped for body markup: \(first.body)")
        #expect(first.hints["resident"] == .boolean(true))
        #expect(first.hints["value"] == .int32(25), "dunst draws the value hint, sent as int32")
        #expect(first.hints["urgency"] == .byte(1), "a new card comes at normal urgency")
        #expect(first.timeout == 0, "never expires")
        #expect(first.actions.contains("end"), "an End button: \(first.actions)")

        try c.update(id, ["progress": .double(0.5)])
        #expect(f.waitForNotifies(2))
        let second = try #require(f.recorder?.calls.last)
        #expect(second.replacesID == first.assignedID, "replaced in place")
        #expect(second.hints["value"] == .int32(50))
        #expect(second.hints["sound-name"] == nil, "a routine update makes no sound")
    }

    @Test func atMostOneNotifyPerSecondLatestWins() throws {
        let f = try DaemonFixture(recorderName: "dunst")
        let c = f.client
        let id = try c.start("generic", state: ["title": .string("flood"), "progress": .double(0)])
        #expect(f.waitForNotifies(1))
        let started = Date()
        for i in 1...100 { try c.update(id, ["progress": .double(Double(i) / 100)]) }
        let floodSeconds = Date().timeIntervalSince(started)
        #expect(waitUntil(timeout: 5) { f.recorder?.calls.last?.hints["value"] == .int32(100) }, "the latest state wins")
        let calls = f.recorder?.calls ?? []
        let allowed = Int(floodSeconds.rounded(.up)) + 2
        #expect(calls.count <= allowed, "\(calls.count) Notify calls for 100 updates in \(floodSeconds) s")
        #expect(calls.last?.hints["value"] == .int32(100), "the latest state wins")
        for (a, b) in zip(calls, calls.dropFirst()) {
            #expect(b.time.timeIntervalSince(a.time) >= 0.9, "two Notify calls within a second")
        }
    }

    @Test func endButtonEndsTheActivity() throws {
        let f = try DaemonFixture(recorderName: "dunst")
        let c = f.client
        let id = try c.start("generic", state: ["title": .string("press")])
        #expect(f.waitForNotifies(1))
        let notification = try #require(f.recorder?.calls.first?.assignedID)
        f.recorder?.invokeAction(id: notification, key: "end")
        #expect(c.waitFor(timeout: 5) { c.received("ActivityEnded").contains { $0.first == .string(id) } })
        #expect(try c.get(id)["status"]?.string == "ended")
        #expect(c.received("ActionInvoked").contains([.string(id), .string("end")]))
    }

    @Test func userClosingTheCardKeepsTheActivity() throws {
        let f = try DaemonFixture(recorderName: "dunst")
        let c = f.client
        let id = try c.start("generic", state: ["title": .string("closable")])
        #expect(f.waitForNotifies(1))
        let notification = try #require(f.recorder?.calls.first?.assignedID)
        f.recorder?.closeByUser(id: notification)
        // Not an absence proof: the subject is a user's close, which reaches the daemon as a
        // signal on the server's connection, with no reply to order after; the wait lets it
        // arrive and the card's once-a-second slot open, and what follows asserts a card.
        Thread.sleep(forTimeInterval: 1.2)
        try c.update(id, ["title": .string("still here")])
        #expect(try f.cardBarrier() != nil)
        #expect(try c.get(id)["status"]?.string == "active")
        #expect(f.notifies(forNotification: notification).count == 1, "a routine update does not bring a closed card back")
        try c.update(id, ["title": .string("alert")], options: ["alert-title": .string("Look")])
        #expect(waitUntil { f.recorder?.calls.last?.summary.contains("Look") == true }, "the next alert brings it back")
    }

    @Test func serversWithoutValueGetATextBarAndNoMarkupGetsRawText() throws {
        let f = try DaemonFixture(recorderName: "notification-daemon", capabilities: ["actions", "body", "persistence"])
        let c = f.client
        _ = try c.start("generic", state: ["title": .string("bar"), "body": .string("x < y"), "progress": .double(0.5)])
        #expect(f.waitForNotifies(1))
        let call = try #require(f.recorder?.calls.first)
        #expect(call.hints["value"] == nil)
        #expect(call.body.contains("50%"), "a text progress bar: \(call.body)")
        #expect(call.body.contains("x < y"), "no body-markup: sent raw")
    }

    @Test func gnomeGetsLowUrgencyRoutineUpdates() throws {
        let f = try DaemonFixture(recorderName: "gnome-shell", capabilities: ["actions", "body", "body-markup", "persistence"],
                                  config: "min-notify-interval = 0.1\n")
        let c = f.client
        let id = try c.start("generic", state: ["title": .string("quiet")])
        #expect(f.waitForNotifies(1))
        try c.update(id, ["title": .string("quiet 2")])
        #expect(f.waitForNotifies(2))
        #expect(f.recorder?.calls.last?.hints["urgency"] == .byte(0))
        try c.update(id, ["title": .string("loud")], options: ["alert-title": .string("Alert!"),
                                                                "alert-sound": .string("message-new-instant")])
        #expect(f.waitForNotifies(3))
        let alert = try #require(f.recorder?.calls.last)
        #expect(alert.hints["urgency"] == .byte(1))
        #expect(alert.hints["sound-name"] == .string("message-new-instant"))
    }

    /// GNOME 43–47 keep 3 notifications per source (app name + pid) and destroy the oldest:
    /// there each card of one kind gets a source of its own (an app name that differs only by
    /// zero-width spaces); GNOME 48+ keeps 10, so cards share one source (one group) there.
    @Test(arguments: [("43.9", 8), ("47.2", 8), ("48.7", 1), ("50.5", 1)])
    func gnomeBefore48GetsOneSourcePerCard(version: String, distinctSources: Int) throws {
        let f = try DaemonFixture(recorderName: "gnome-shell", recorderVersion: version,
                                  capabilities: ["actions", "body", "body-markup", "persistence"])
        for index in 1...8 { _ = try f.client.start("generic", state: ["title": .string("Card\(index)")]) }
        #expect(waitUntil { Set(f.recorder?.calls.map(\.summary) ?? []).count == 8 }, "every card is shown")
        let names = try #require(f.recorder?.calls.map(\.appName))
        #expect(Set(names).count == distinctSources, "\(names.map { $0.unicodeScalars.count })")
        #expect(Set(names.map { $0.replacingOccurrences(of: "\u{200B}", with: "") }).count == 1, "all show one app name")
        _ = try f.client.start("generic", state: ["title": .string("Other")], options: ["app-name": .string("Other app")])
        #expect(waitUntil { f.recorder?.calls.contains { $0.summary == "Other" } == true })
        #expect(f.recorder?.calls.first { $0.summary == "Other" }?.appName == "Other app",
                "the first card of each app name keeps its name as it is")
    }

    /// GNOME 46+ judge a replace by the urgency of the Notify before it, and never pop a card
    /// replaced since its last banner: a normal-urgency send is followed at once by the same card
    /// at low, and an alert closes the card and comes as a new notification (seen on 48 and 50);
    /// the alert's sound rides on the follow-up only (a re-shown banner plays its sound again).
    @Test func gnome46AndLaterSettleTheUrgencyAndAlertAsANewCard() throws {
        let f = try DaemonFixture(recorderName: "gnome-shell", recorderVersion: "48.7",
                                  capabilities: ["actions", "body", "body-markup", "persistence"],
                                  config: "min-notify-interval = 0.1\n")  // the slot is not the subject
        let c = f.client
        let id = try c.start("generic", state: ["title": .string("Backup")])
        #expect(f.waitForNotifies(2))
        let calls = try #require(f.recorder?.calls)
        #expect(calls.map { $0.hints["urgency"] } == [.byte(1), .byte(0)], "the Start at normal, settled at low at once")
        #expect(calls[1].replacesID == calls[0].assignedID && calls[1].summary == "Backup")
        let first = calls[0].assignedID
        try c.update(id, ["title": .string("Backup 2")])
        #expect(f.waitForNotifies(3))
        #expect(f.recorder?.calls.last?.hints["urgency"] == .byte(0), "a routine update: low, alone")
        try c.update(id, ["title": .string("Backup failed")], options: ["alert-title": .string("Backup failed"),
                                                                         "alert-sound": .string("bell")])
        #expect(f.waitForNotifies(5))
        #expect(waitUntil { f.recorder?.closed.contains(first) == true }, "the old card is closed")
        let alert = try #require(f.recorder?.calls.suffix(2).map { $0 })
        #expect(alert[0].replacesID == 0 && alert[0].assignedID != first, "the alert is a new notification")
        #expect(alert.map { $0.hints["urgency"] } == [.byte(1), .byte(0)])
        // The shell replays a banner's sound when the follow-up re-shows it: only the follow-up sounds.
        #expect(alert.map { $0.hints["sound-name"] } == [nil, .string("bell")], "the sound goes with the settle only")
        #expect(alert.map { $0.hints["suppress-sound"] } == [.boolean(true), nil])
        #expect(alert[1].replacesID == alert[0].assignedID)
    }

    @Test func disablingHidesCardsAndEnablingShowsThemAgain() throws {
        let f = try DaemonFixture(recorderName: "dunst")
        let c = f.client
        let id = try c.start("generic", state: ["title": .string("switch")])
        #expect(f.waitForNotifies(1))
        let notification = try #require(f.recorder?.calls.first?.assignedID)
        try c.call("Set", [.string(TestClient.interface), .string("Enabled"), .variant(.boolean(false))],
                   interface: "org.freedesktop.DBus.Properties")
        #expect(waitUntil(timeout: 5) { f.recorder?.closed.contains(notification) == true }, "the card is closed")
        try c.update(id, ["title": .string("changed while off")])
        #expect(try c.get(id)["title"]?.string == "changed while off", "the activity itself goes on")
        try c.call("Set", [.string(TestClient.interface), .string("Enabled"), .variant(.boolean(true))],
                   interface: "org.freedesktop.DBus.Properties")
        #expect(waitUntil { f.recorder?.calls.contains { $0.summary == "changed while off" } == true })
        #expect(f.recorder?.calls.map(\.summary) == ["switch", "changed while off"],
                "no card while disabled; shown again, as it is now, when enabled")
    }
}

/// Start option `app-id` through the daemon: on the card as `desktop-entry`, in Get as
/// `app-id`; a bad one is InvalidArgs; without one the card carries ours.
@Suite("Cards carry their app's identity", .timeLimit(.minutes(5)))
struct CardAppIdentityTests {
    @Test func theAppsDesktopEntryElseOurs() throws {
        let f = try DaemonFixture(recorderName: "dunst", config: "min-notify-interval = 0.1\n")
        let id = try f.client.start("generic", state: ["title": .string("Maps")], options: ["app-id": .string("org.gnome.Maps")])
        #expect(f.waitForNotifies(1))
        #expect(f.recorder?.calls.last?.hints["desktop-entry"] == .string("org.gnome.Maps"))
        let properties = try f.client.call("Get", [.string(id)]).first?.vardict
        #expect(properties?["app-id"]?.unwrapped == .string("org.gnome.Maps"))
        _ = try f.client.start("generic", state: ["title": .string("Ours")])
        #expect(f.waitForNotifies(2))
        #expect(f.recorder?.calls.last?.hints["desktop-entry"] == .string("io.github.liveactivities"))
        #expect(throws: (any Error).self) {
            _ = try f.client.start("generic", state: ["title": .string("Bad")], options: ["app-id": .string("../etc/passwd")])
        }
        do {
            _ = try f.client.start("generic", state: [:], options: ["app-id": .string("a b")])
        } catch {
            #expect("\(error)".contains("InvalidArgs") && "\(error)".contains("app-id"), "\(error)")
        }
    }
}
