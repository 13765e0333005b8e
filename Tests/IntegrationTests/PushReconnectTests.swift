import DBus
import Foundation
import Testing
import TestSupport

/// Push when the broker or the daemon goes away: reconnection with re-subscription, a broker
/// that is not there yet, and messages queued by the broker while the daemon was down.
@Suite("Push across broker and daemon restarts", .serialized, .timeLimit(.minutes(5)))
struct PushReconnectTests {
    @Test func brokerRestartIsFollowedByResubscription() throws {
        let w = try PushWorld(recorderName: nil)
        let (id, token) = try w.startWithToken()
        #expect(w.waitForStatus { $0 == "connected" })
        w.broker.kill()
        #expect(w.waitForStatus { $0.hasPrefix("error: ") }, "status: \(w.status)")
        try w.broker.start()
        #expect(w.waitForStatus { $0 == "connected" }, "status: \(w.status)")
        try w.publish("activity", token, aps: ["timestamp": PushWorld.now(), "event": "update", "content-state": ["body": "after restart"]])
        #expect(w.waitForReceived(1))
        #expect(try w.client.get(id)["body"]?.string == "after restart")
    }

    @Test func brokerAbsentAtDaemonStart() throws {
        let w = try PushWorld(brokerRunning: false, recorderName: nil)
        #expect(w.waitForStatus { $0.hasPrefix("error: ") }, "status: \(w.status)")
        let id = try w.client.start("generic", state: ["title": .string("waiting")], options: ["push-type": .string("token")])
        #expect(try w.client.get(id)["push-token"]?.string == "", "no token is announced before the broker confirmed it")
        try w.broker.start()
        #expect(w.waitForStatus { $0 == "connected" }, "status: \(w.status)")
        var token = ""
        #expect(w.client.waitFor(timeout: 20) { token = (try? w.client.get(id)["push-token"]?.string) ?? ""; return !token.isEmpty })
        try w.publish("activity", token, aps: ["timestamp": PushWorld.now(), "event": "update", "content-state": ["body": "late broker"]])
        #expect(w.waitForReceived(1))
        #expect(try w.client.get(id)["body"]?.string == "late broker")
    }

    @Test func messagesQueuedWhileTheDaemonWasDownArriveInOrder() throws {
        let w = try PushWorld(recorderName: nil)
        let (id, token) = try w.startWithToken()
        let startToken = try #require(try w.client.call("PushToStartToken", [.string("generic")]).first?.string)
        w.fixture.daemon.kill()
        let t = PushWorld.now()
        try w.publish("activity", token, aps: ["timestamp": t, "event": "update", "content-state": ["body": "first"]])
        try w.publish("activity", token, aps: ["timestamp": t + 10, "event": "update", "content-state": ["body": "second"]])
        try w.publish("activity", token, aps: ["timestamp": t + 5, "event": "update", "content-state": ["body": "stale"]])
        try w.fixture.daemon.start()
        #expect(w.waitForReceived(3))
        #expect(w.received.map(\.applied) == [true, true, false], "\(w.received)")
        #expect(try w.client.get(id)["body"]?.string == "second")
        #expect(try w.client.get(id)["push-token"]?.string == token, "the token survives the restart")
        #expect(try w.client.call("PushToStartToken", [.string("generic")]).first?.string == startToken)
    }
}
