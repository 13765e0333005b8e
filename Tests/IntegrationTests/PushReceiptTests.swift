import DBus
import Foundation
import Testing
import TestSupport

/// Delivery receipts over a real mosquitto: for each message the sender reads what became of
/// it on `<prefix>/receipt/activity/<token>` (applied, or the APNs-like reason), and learns that
/// a token is unregistered when its activity ends; no receipt carries content-state.
@Suite("Push delivery receipts", .timeLimit(.minutes(5)), .serialized)
struct PushReceiptTests {
    @Test func eachMessageGetsAReceiptAndAnEndedTokenIsUnregistered() throws {
        let w = try PushWorld()
        #expect(w.waitForStatus { $0 == "connected" }, "status: \(w.status)")
        let listener = try ReceiptListener(port: w.broker.port, directory: w.broker.directory.url)
        let (id, token) = try w.startWithToken(state: ["title": .string("Build"), "progress": .double(0.1)])
        let now = PushWorld.now()
        let update = #"{"aps": {"timestamp": \#(now), "event": "update", "content-state": {"body": "secret-body-text"}}}"#
        try w.publishRaw("activity", token, update)
        try w.publishRaw("activity", token, update)
        try w.publish("activity", token, aps: ["timestamp": now - 60, "event": "update", "content-state": ["body": "old"]])
        try w.publish("activity", token, aps: ["timestamp": now + 1, "event": "update", "content-state": ["progress": "secret-value"]])
        try w.publishRaw("activity", token, "not json")
        #expect(listener.waitFor(5), "\(listener.lines)")
        let topic = "liveactivities/receipt/activity/\(token)"
        let got = listener.receipts
        #expect(got.allSatisfy { $0.topic == topic }, "\(got.map(\.topic))")
        let reasons = got.map { $0.body["reason"] as? String ?? "?" }
        #expect(reasons == ["", "Duplicate", "Stale", "InvalidArgs", "InvalidArgs"], "\(listener.lines)")
        #expect(got.map { $0.body["applied"] as? Bool } == [true, false, false, false, false])
        #expect(got.first?.body["timestamp"] as? Int == now && got.first?.body["activity"] as? String == id)
        let digests = got.map { $0.body["digest"] as? String ?? "" }
        #expect(digests.count == 5 && digests[0].count == 32 && digests[0] == digests[1] && digests[1] != digests[2],
                "the sender can match a receipt to the bytes it sent: \(digests)")
        #expect(got.last?.body["timestamp"] is NSNull, "a message without a readable timestamp")
        #expect(!listener.lines.contains { $0.contains("secret-body-text") || $0.contains("secret-value") }, "no content-state in a receipt")
        #expect((got[3].body["detail"] as? String ?? "").contains("progress"), "the refusal names the key: \(got[3].body)")

        try w.client.end(id)
        #expect(listener.waitFor(6), "\(listener.lines)")
        let last = listener.receipts.last
        #expect(last?.topic == topic && last?.body["reason"] as? String == "Unregistered" && last?.body["event"] as? String == "unregistered",
                "\(listener.lines)")
    }

    @Test func anEndByPushIsAppliedThenUnregistered() throws {
        let w = try PushWorld()
        let listener = try ReceiptListener(port: w.broker.port, directory: w.broker.directory.url)
        let (_, token) = try w.startWithToken()
        try w.publish("activity", token, aps: ["timestamp": PushWorld.now(), "event": "end", "content-state": ["body": "done"]])
        #expect(listener.waitFor(2), "\(listener.lines)")
        #expect(listener.receipts.map { $0.body["event"] as? String } == ["end", "unregistered"], "\(listener.lines)")
        #expect(listener.receipts.first?.body["applied"] as? Bool == true)
    }

    @Test func unknownTokensAreNamedLikeAPNs() throws {
        let w = try PushWorld()
        #expect(w.waitForStatus { $0 == "connected" }, "status: \(w.status)")
        let listener = try ReceiptListener(port: w.broker.port, directory: w.broker.directory.url)
        let startToken = try w.client.call("PushToStartToken", [.string("generic")]).first?.string ?? ""
        try w.publish("start", startToken, aps: ["timestamp": PushWorld.now(), "event": "start", "attributes-type": "nope",
                                                 "content-state": ["title": "x"]])
        #expect(listener.waitFor(1), "\(listener.lines)")
        #expect(listener.receipts.first?.topic == "liveactivities/receipt/start/\(startToken)")
        #expect(listener.receipts.first?.body["reason"] as? String == "UnknownKind", "\(listener.lines)")
    }
}
