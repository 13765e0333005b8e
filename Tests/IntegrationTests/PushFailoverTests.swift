import DBus
import Foundation
import Testing
import TestSupport

/// `push-broker` with two brokers: the daemon takes the first that answers and moves to the
/// next when its broker goes away, with the same client id, and keeps its tokens. (Two
/// separate mosquittos share no session, so this checks the daemon's side: the clustered
/// brokers, whose nodes share sessions, are checked by scripts/test-brokers.)
@Suite("Push with several brokers", .timeLimit(.minutes(5)), .serialized)
struct PushFailoverTests {
    @Test func theDaemonMovesToTheNextBrokerWhenItsBrokerDies() throws {
        let first = try Mosquitto()
        let second = try Mosquitto()
        let w = try PushWorld(broker: first, daemonConfig: "push-broker = \(first.url), \(second.url)\n")
        #expect(w.waitForStatus { $0 == "connected" }, "status: \(w.status)")
        let (id, token) = try w.startWithToken()
        #expect(!token.isEmpty)
        first.kill()
        // The move takes milliseconds: the log, not the property, shows the lost connection.
        #expect(waitUntil(timeout: 20) { w.fixture.daemon.log().contains("push: connected to 127.0.0.1:\(second.port)") }, "\(w.fixture.daemon.log())")
        #expect(w.fixture.daemon.log().contains("push: error: connection to 127.0.0.1:\(first.port) lost"), "the lost broker is named")
        #expect(w.waitForStatus { $0 == "connected" }, "on the second broker: \(w.status)")
        try second.publish("liveactivities/activity/\(token)",
                           #"{"aps": {"timestamp": \#(PushWorld.now()), "event": "update", "content-state": {"body": "via B"}}}"#)
        #expect(w.waitForReceived(1))
        #expect(try w.client.get(id)["body"]?.string == "via B")
        #expect(try w.client.get(id)["push-token"]?.string == token, "the token stays")
    }

    @Test func aFirstBrokerThatDoesNotAnswerIsSkipped() throws {
        let down = try Mosquitto(start: false)
        let up = try Mosquitto()
        let w = try PushWorld(broker: up, daemonConfig: "push-broker = \(down.url),\(up.url)\n")
        #expect(w.waitForStatus(timeout: 10) { $0 == "connected" }, "status: \(w.status)")
        let (id, token) = try w.startWithToken()
        try up.publish("liveactivities/activity/\(token)",
                       #"{"aps": {"timestamp": \#(PushWorld.now()), "event": "update", "content-state": {"body": "hello"}}}"#)
        #expect(w.waitForReceived(1))
        #expect(try w.client.get(id)["body"]?.string == "hello")
    }
}
