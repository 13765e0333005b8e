import Push
import Testing

/// Topics, tokens and the push-* settings.
@Suite("Push topics, tokens and settings", .timeLimit(.minutes(2)))
struct PushTopicsTests {
    let topics = PushTopics(prefix: "liveactivities")

    @Test func routesOnlyOurTopics() {
        #expect(topics.route(of: "liveactivities/activity/abc") == .activity(token: "abc"))
        #expect(topics.route(of: "liveactivities/start/def") == .start(token: "def"))
        #expect(topics.route(of: "liveactivities/channel/match-7") == .channel(id: "match-7"))
        for other in ["liveactivities/activity/", "liveactivities/activity/a/b", "other/activity/a", "liveactivities/x/a", "liveactivities"] {
            #expect(topics.route(of: other) == nil, "\(other)")
        }
        #expect(PushTopics(prefix: "home/desk").route(of: "home/desk/start/t") == .start(token: "t"))
    }

    @Test func tokensAre128RandomBitsInHexAndRedactedInLogs() {
        let a = PushToken.make(), b = PushToken.make()
        #expect(PushToken.isValid(a) && PushToken.isValid(b) && a != b)
        #expect(PushToken.redacted(a) == String(a.prefix(6)) + "…")
        let topic = topics.activity(a)
        #expect(!topics.redacted(topic).contains(a) && topics.redacted(topic).hasPrefix("liveactivities/activity/"))
    }

    @Test(arguments: [("team_1", true), ("a.b-c", true), ("", false), ("a/b", false), ("a+", false), ("#", false),
                      (String(repeating: "x", count: 65), false)])
    func channelIDs(id: String, valid: Bool) {
        #expect(PushToken.isValidChannel(id) == valid)
    }

    @Test func brokerURLs() {
        #expect(PushSettings.parseBroker("mqtt://localhost") == .init(host: "localhost", port: 1883, tls: false))
        #expect(PushSettings.parseBroker("mqtts://broker.example.org") == .init(host: "broker.example.org", port: 8883, tls: true))
        #expect(PushSettings.parseBroker("mqtt://10.0.0.2:1884/") == .init(host: "10.0.0.2", port: 1884, tls: false))
        #expect(PushSettings.parseBroker("mqtt://[::1]:1885") == .init(host: "::1", port: 1885, tls: false))
        for bad in ["http://x", "mqtt://", "mqtt://x:0", "mqtt://x:99999", "mqtt://user@x", "x:1883"] {
            #expect(PushSettings.parseBroker(bad) == nil, "\(bad)")
        }
    }

    @Test func settingsKeys() {
        var settings = PushSettings()
        #expect(settings.set("push-broker", "mqtts://b:8884") == nil)
        #expect(settings.set("push-topic-prefix", "home/desk") == nil)
        #expect(settings.set("push-password-file", "relative") != nil)
        #expect(settings.set("push-topic-prefix", "a/#") != nil)
        #expect(settings.broker?.tls == true && settings.topicPrefix == "home/desk")
    }
}
