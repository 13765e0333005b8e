import Push
import Testing

/// Receipts as a sender reads them: APNs-like reason names, the receipt topic of each route,
/// and JSON that carries no content.
@Suite(.timeLimit(.minutes(5))) struct PushReceiptFormatTests {
    @Test func aTokenNobodyHoldsIsNamedLikeAPNs() {
        let onActivity = PushReceipt.outcome(.activity(token: "t"), timestamp: 1, applied: false,
                                             reason: "NotFound: no live activity has this token", event: "update", activity: "", digest: nil)
        #expect(onActivity.reason == "Unregistered" && onActivity.detail == "no live activity has this token")
        let onStart = PushReceipt.outcome(.start(token: "t"), timestamp: 1, applied: false, reason: "NotFound: x",
                                          event: "start", activity: "", digest: nil)
        #expect(onStart.reason == "BadDeviceToken")
        let stale = PushReceipt.outcome(.channel(id: "c"), timestamp: 1, applied: false, reason: "Stale: timestamp 1 is older: than",
                                        event: "update", activity: "a", digest: "d")
        #expect(stale.reason == "Stale" && stale.detail == "timestamp 1 is older: than")
    }

    @Test(arguments: [
        ("state key \"progress\": expected a number from 0 to 1, got string \"secret\"", "state key \"progress\": expected a number from 0 to 1, got string"),
        ("aps.content-state: expected an object, got an array", "aps.content-state: expected an object, got an array"),
        ("x: expected a finite number, got boolean true; give only one of them", "x: expected a finite number, got boolean; give only one of them"),
        ("range: expected an end after 5, got 1764000000", "range: expected an end after 5, got a value"),
        ("not JSON: unexpected end at byte 7", "not JSON: unexpected end at byte 7"),
    ])
    func aReceiptNamesTheKeyButNeverTheValueSent(detail: String, expected: String) {
        #expect(PushReceipt.withoutValues(detail) == expected)
        #expect(PushReceipt.outcome(.activity(token: "t"), timestamp: 1, applied: false, reason: "InvalidArgs: " + detail,
                                    event: "update", activity: "a", digest: nil).detail == expected)
    }

    @Test func receiptTopicsMirrorTheMessageTopicUnderTheDesktopsPrefix() {
        let topics = PushTopics(prefix: "liveactivities/anna")
        #expect(topics.receipt(of: .activity(token: "abc")) == "liveactivities/anna/receipt/activity/abc")
        #expect(topics.receipt(of: .start(token: "abc")) == "liveactivities/anna/receipt/start/abc")
        #expect(topics.receipt(of: .channel(id: "m-7")) == "liveactivities/anna/receipt/channel/m-7")
        #expect(topics.route(of: topics.receipt(of: .activity(token: "abc"))) == nil, "a receipt is never taken for a message")
    }

    @Test func jsonIsOneEscapedLine() {
        let receipt = PushReceipt(timestamp: 1_764_000_000.5, applied: false, reason: "InvalidArgs",
                                  detail: "bad \"x\"\n\u{1}", event: "update", activity: "a", digest: nil)
        #expect(receipt.json == #"{"timestamp":1764000000.5,"applied":false,"reason":"InvalidArgs","detail":"bad \"x\"\n\u0001","event":"update","activity":"a","digest":null}"#)
        var started = PushReceipt(timestamp: 5, applied: true, reason: "", detail: "", event: "start", activity: "a", digest: "d")
        started.pushToken = "0123"
        #expect(started.json.hasSuffix(#","digest":"d","push-token":"0123"}"#), "\(started.json)")
        #expect(PushReceipt.unregistered(activity: "a", at: 5, why: "ended").json
                == #"{"timestamp":5,"applied":false,"reason":"Unregistered","detail":"ended","event":"unregistered","activity":"a","digest":null}"#)
    }
}
