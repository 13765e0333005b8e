import Testing
import ActivityFiles
@testable import LiveActivitiesService

/// The push-* keys of liveactivityd.conf.
@Suite(.timeLimit(.minutes(5))) struct PushConfigTests {
    @Test func pushIsOffByDefault() {
        #expect(DaemonConfig.parse("").0.push.broker == nil)
    }

    @Test func everyPushKeySets() {
        let (config, problems) = DaemonConfig.parse("""
        push-broker = mqtts://broker.example.org:8884   # TLS
        push-username = desk
        push-password-file = /home/a/.config/liveactivities/push-password
        push-ca-file = /etc/ssl/ca.pem
        push-topic-prefix = home/desk
        """)
        #expect(problems.isEmpty, "\(problems)")
        #expect(config.push.broker?.host == "broker.example.org" && config.push.broker?.port == 8884 && config.push.broker?.tls == true)
        #expect(config.push.username == "desk")
        #expect(config.push.passwordFile == "/home/a/.config/liveactivities/push-password")
        #expect(config.push.caFile == "/etc/ssl/ca.pem")
        #expect(config.push.topicPrefix == "home/desk")
    }

    @Test func aCommaSeparatedListNamesEveryBrokerInOrder() {
        let (config, problems) = DaemonConfig.parse("push-broker = mqtt://a:1883, mqtt://b:1884 ,mqtt://[::1]\n")
        #expect(problems.isEmpty, "\(problems)")
        #expect(config.push.brokers.map { "\($0.host):\($0.port)" } == ["a:1883", "b:1884", "::1:1883"])
        #expect(config.push.broker?.host == "a" && config.push.brokerProblem == nil)
    }

    @Test(arguments: [
        ("push-broker = http://x", "line 1: push-broker: expected mqtt://HOST[:PORT] or mqtts://HOST[:PORT], got \"http://x\""),
        ("push-broker = mqtt://a:1883, ftp://b", "line 1: push-broker: \"ftp://b\" is not mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (in \"mqtt://a:1883, ftp://b\")"),
        ("push-broker = mqtt://a:1883,", "line 1: push-broker: \"\" is not mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (in \"mqtt://a:1883,\")"),
        ("push-broker = mqtt://a, mqtts://b", "line 1: push-broker: mqtt:// and mqtts:// cannot be mixed in one list, got \"mqtt://a, mqtts://b\""),
        ("push-broker = mqtt://a:1883, mqtt://a", "line 1: push-broker: mqtt://a is listed twice, got \"mqtt://a:1883, mqtt://a\""),
        ("push-topic-prefix = a/+/b", "line 1: push-topic-prefix: expected a topic prefix without + or # (default liveactivities), got \"a/+/b\""),
        ("push-password-file = secret.txt",
         "line 1: push-password-file: expected the path of a file holding the password, got \"secret.txt\" (an absolute path)"),
        ("push-colour = red", "line 1: unknown key \"push-colour\""),
    ])
    func badPushLinesAreNamedAndIgnored(line: String, message: String) {
        let (config, problems) = DaemonConfig.parse(line)
        var used = config.push
        used.brokerProblem = nil
        #expect(used == DaemonConfig().push, "the line is ignored")
        #expect(problems.first?.hasPrefix(message) == true, "\(problems)")
        if line.hasPrefix("push-broker") {
            #expect(config.push.brokerProblem.map { message.hasSuffix($0) } == true, "kept for PushStatus: \(String(describing: config.push.brokerProblem))")
        }
    }
}
