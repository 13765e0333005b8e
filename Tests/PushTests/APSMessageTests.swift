import Push
import Testing

/// Reading `aps` payloads: what each event uses, what is ignored, what is refused and why.
@Suite("aps payloads", .timeLimit(.minutes(2)))
struct APSMessageTests {
    private func parse(_ text: String, maxBytes: Int = 4096) throws(PushRejection) -> APSMessage {
        try APSMessage.parse(Array(text.utf8), maxBytes: maxBytes)
    }

    private func rejection(_ text: String, maxBytes: Int = 4096) -> PushRejection? {
        do { _ = try parse(text, maxBytes: maxBytes); return nil } catch { return error }
    }

    @Test func updateWithEveryField() throws {
        let message = try parse("""
        {"aps": {"timestamp": 1700000000, "event": "update", "content-state": {"title": "Build", "progress": 0.5, "step": 3, "ok": true},
                 "stale-date": 1700003600, "relevance-score": 75, "alert": {"title": "Half", "body": "way", "sound": "default"},
                 "badge": 1, "dismissal-date": 1}, "custom": {"x": 1}}
        """)
        #expect(message.event == .update)
        #expect(message.timestamp == 1_700_000_000)
        #expect(message.contentState == ["title": .string("Build"), "progress": .double(0.5), "step": .int(3), "ok": .bool(true)])
        #expect(message.staleDate == 1_700_003_600)
        #expect(message.relevanceScore == 75)
        #expect(message.alert == APSMessage.Alert(title: "Half", body: "way", sound: "default"))
        #expect(message.dismissalDate == nil, "dismissal-date belongs to end")
        #expect(message.ignoredKeys == ["badge", "dismissal-date"])
    }

    @Test func startReadsKindAttributesAndInputs() throws {
        let message = try parse("""
        {"aps": {"timestamp": 1, "event": "start", "attributes-type": "focus", "attributes": {"minutes": 25},
                 "content-state": {}, "input-push-token": 1, "input-push-channel": "team", "alert": {"title": "Go"}}}
        """)
        #expect(message.event == .start && message.attributesType == "focus")
        #expect(message.attributes == ["minutes": .int(25)])
        #expect(message.inputPushToken && message.inputPushChannel == "team")
        #expect(message.alert == nil && message.ignoredKeys == ["alert"])
    }

    @Test func endReadsDismissalDate() throws {
        let message = try parse(#"{"aps": {"timestamp": 5, "event": "end", "dismissal-date": 0, "stale-date": 9}}"#)
        #expect(message.event == .end && message.dismissalDate == 0 && message.staleDate == nil)
    }

    @Test(arguments: [
        (#"{"aps": {"event": "update"}}"#, "InvalidArgs: aps.timestamp is missing; expected unix seconds"),
        (#"{"aps": {"timestamp": 1}}"#, "InvalidArgs: aps.event is missing; expected one of start, update, end"),
        (#"{"aps": {"timestamp": 1, "event": "pause"}}"#, "InvalidArgs: aps.event: expected one of start, update, end, got string \"pause\""),
        (#"{"aps": {"timestamp": "now", "event": "update"}}"#, "InvalidArgs: aps.timestamp: expected unix seconds after 1970, got string \"now\""),
        (#"{"aps": {"timestamp": 1, "event": "update", "content-state": {"a": [1]}}}"#,
         "InvalidArgs: content-state key \"a\": expected a string, number or boolean, got an array"),
        (#"{"aps": {"timestamp": 1, "event": "update", "content-state": {"a": null}}}"#,
         "InvalidArgs: content-state key \"a\": expected a string, number or boolean, got null"),
        (#"{"aps": {"timestamp": 1, "event": "update", "alert": {"title": {"loc-key": "K"}}}}"#,
         "InvalidArgs: aps.alert.title: expected a string (localized alerts are not supported), got an object"),
        (#"{"aps": {"timestamp": 1, "event": "update", "alert": {"loc-key": "GAME_PLAY", "loc-args": ["Anna"]}}}"#,
         "InvalidArgs: aps.alert.loc-args: localized alerts are not supported; send the text in title and body"),
        (#"{"aps": {"timestamp": 1, "event": "update", "alert": {"title-loc-key": "T", "body": "b"}}}"#,
         "InvalidArgs: aps.alert.title-loc-key: localized alerts are not supported; send the text in title and body"),
        (#"{"aps": {"timestamp": 1, "event": "start"}}"#,
         "InvalidArgs: aps.attributes-type is missing; a start message names the kind of activity to start"),
        (#"{"aps": {"timestamp": 1, "event": "start", "attributes-type": "generic", "input-push-token": 2}}"#,
         "InvalidArgs: aps.input-push-token: expected 1 or 0, got integer 2"),
        (#"{"aps": {"timestamp": 1, "event": "update", "relevance-score": "high"}}"#,
         "InvalidArgs: aps.relevance-score: expected a number, got string \"high\""),
        (#"{"apns": {}}"#, "InvalidArgs: the message has no \"aps\" object"),
        (#"[1]"#, "InvalidArgs: expected a JSON object with key \"aps\", got an array"),
        (#"{"aps": "#, "InvalidArgs: not JSON: unexpected end at byte 8"),
    ])
    func refusesWithAReason(text: String, reason: String) {
        #expect(rejection(text)?.description == reason)
    }

    @Test func refusesOversizeBeforeReadingIt() {
        let text = #"{"aps": {"timestamp": 1, "event": "update", "content-state": {"b": ""# + String(repeating: "x", count: 200) + "\"}}}"
        #expect(rejection(text, maxBytes: 100)?.name == "PayloadTooLarge")
        #expect(rejection(text, maxBytes: 100)?.message == "the message has \(text.utf8.count) bytes; at most 100 are accepted")
        #expect(rejection(text, maxBytes: 4096) == nil)
    }
}
