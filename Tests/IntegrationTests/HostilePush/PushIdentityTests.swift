import DBus
import Foundation
import Testing
import TestSupport

/// Issue 18, point 4: a push message is applied at most once. Its identity is its target (token
/// or kind), its `aps.timestamp` and its bytes; a QoS 1 resend or a retained message delivered
/// again after a restart is ignored as a duplicate. Timestamps far ahead of the clock are
/// refused and lock nothing; a lock saved by an older daemon is healed at load.
@Suite("Push message identity", .timeLimit(.minutes(5)), .serialized)
struct PushIdentityTests {
    static var start: [String: Any] { ["event": "start", "attributes-type": "generic", "attributes": [:] as [String: Any],
                                       "content-state": ["title": "Delivery", "body": "on its way"]] }

    @Test func aPushToStartDeliveredThreeTimesStartsOneActivity() throws {
        let w = try PushWorld(recorderName: nil)
        #expect(w.waitForStatus { $0 == "connected" })
        let startToken = try #require(try w.client.call("PushToStartToken", [.string("generic")]).first?.string)
        var aps = Self.start
        aps["timestamp"] = PushWorld.now()
        for _ in 0..<3 { try w.publish("start", startToken, aps: aps) }
        #expect(w.waitForReceived(3))
        #expect(w.received.map(\.applied) == [true, false, false], "\(w.received)")
        #expect(w.received.dropFirst().allSatisfy { $0.reason.hasPrefix("Duplicate: ") }, "\(w.received)")
        #expect(try w.client.list().count == 1, "one activity, not three")
        // A different start in the same second is a new message.
        aps["content-state"] = ["title": "Second delivery"]
        try w.publish("start", startToken, aps: aps)
        #expect(w.waitForReceived(4))
        #expect(w.received.last?.applied == true, "\(w.received)")
        #expect(try w.client.list().count == 2)
    }

    @Test func retainedStartAndAlertAreNotAppliedAgainAfterARestart() throws {
        let w = try PushWorld(recorderName: nil)
        #expect(w.waitForStatus { $0 == "connected" })
        let startToken = try #require(try w.client.call("PushToStartToken", [.string("generic")]).first?.string)
        var aps = Self.start
        aps["timestamp"] = PushWorld.now()
        try w.publish("start", startToken, aps: aps, arguments: ["-r"])
        #expect(w.waitForReceived(1))
        let (id, token) = try w.startWithToken()
        try w.publish("activity", token, aps: ["timestamp": PushWorld.now(), "event": "update", "content-state": ["body": "goal"],
                                              "alert": ["title": "Goal!", "body": "1 : 0", "sound": "default"]],
                      arguments: ["-r"])
        #expect(w.waitForReceived(2))
        #expect(w.received.map(\.applied) == [true, true], "\(w.received)")
        try w.client.update(id, ["body": .string("later, from the bus")])

        w.fixture.daemon.kill()
        try w.fixture.daemon.start()
        // Both retained messages come again with the new subscriptions.
        #expect(w.waitForReceived(4), "\(w.received)")
        let again = w.received.dropFirst(2)
        #expect(again.allSatisfy { !$0.applied && $0.reason.hasPrefix("Duplicate: ") }, "\(again)")
        #expect(try w.client.list().count == 2, "the retained start started nothing new")
        #expect(try w.client.get(id)["body"]?.string == "later, from the bus", "the retained update was not applied again")
    }

    @Test func timestampsFarAheadAreRefusedAndLockNothing() throws {
        let w = try PushWorld(recorderName: nil)
        let (id, token) = try w.startWithToken()
        let now = PushWorld.now()
        try w.publish("activity", token, aps: ["timestamp": now * 1000, "event": "update", "content-state": ["body": "millis"]])
        try w.publish("activity", token, aps: ["timestamp": 1e300, "event": "update", "content-state": ["body": "huge"]])
        try w.publish("activity", token, aps: ["timestamp": now, "event": "update", "content-state": ["body": "correct"]])
        #expect(w.waitForReceived(3))
        #expect(w.received.map(\.applied) == [false, false, true], "\(w.received)")
        #expect(w.received.first?.reason.hasPrefix("InvalidArgs: aps.timestamp \(now * 1000) is ") == true, "\(w.received)")
        #expect(w.received.first?.reason.contains("not milliseconds") == true, "\(w.received)")
        #expect(try w.client.get(id)["body"]?.string == "correct")
        let saved = try String(contentsOf: w.fixture.daemon.stateDirectory.appendingPathComponent("push.json"), encoding: .utf8)
        #expect(!saved.contains("\(now * 1000)"), "the refused timestamp is not saved")
    }

    @Test func aLockSavedByAnOlderDaemonIsHealedAtLoad() throws {
        let w = try PushWorld(recorderName: nil)
        let (id, token) = try w.startWithToken()
        let file = w.fixture.daemon.stateDirectory.appendingPathComponent("push.json")
        w.fixture.daemon.kill()
        var registry = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var activities = try #require(registry["activities"] as? [String: [String: Any]])
        activities[id]?["lastTimestamp"] = Double(PushWorld.now()) * 1000
        registry["activities"] = activities
        try JSONSerialization.data(withJSONObject: registry).write(to: file)
        try w.fixture.daemon.start()
        #expect(w.waitForStatus { $0 == "connected" })
        try w.publish("activity", token, aps: ["timestamp": PushWorld.now(), "event": "update", "content-state": ["body": "unlocked"]])
        #expect(w.waitForReceived(1))
        #expect(w.received.first?.applied == true, "\(w.received)")
        #expect(try w.client.get(id)["body"]?.string == "unlocked")
        #expect(w.fixture.daemon.log().contains("ahead of the clock"), "the healing is logged")
    }

    @Test func pushToStartTokenWorksForAKindAddedAtRunTime() throws {
        let w = try PushWorld(recorderName: nil)
        #expect(w.waitForStatus { $0 == "connected" })
        let kinds = w.fixture.daemon.configDirectory.appendingPathComponent("kinds")
        try FileManager.default.createDirectory(at: kinds, withIntermediateDirectories: true)
        try #"{"name": "tea", "templates": {"title": "Tea"}}"#.write(to: kinds.appendingPathComponent("tea.json"),
                                                                        atomically: true, encoding: .utf8)
        let token = try #require(try w.client.call("PushToStartToken", [.string("tea")]).first?.string)
        #expect(token.count == 32)
        #expect(try w.client.call("PushToStartToken", [.string("tea")]).first?.string == token, "stable")
        let saved = try String(contentsOf: w.fixture.daemon.stateDirectory.appendingPathComponent("push.json"), encoding: .utf8)
        #expect(saved.contains(token), "saved before it is handed out")
        // The new token's subscription follows the reply; a later token's confirmation proves it is in place.
        _ = try w.startWithToken()
        try w.publish("start", token, aps: ["timestamp": PushWorld.now(), "event": "start", "attributes-type": "tea",
                                           "content-state": [:] as [String: Any]])
        #expect(w.waitForReceived(1))
        let started = try #require(w.received.first)
        #expect(started.applied, "\(started)")
        #expect(try w.client.get(started.id)["kind"]?.string == "tea")
    }
}
