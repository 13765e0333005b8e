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

    @Test(arguments: [
        ("push-broker = http://x", "line 1: push-broker: expected mqtt://HOST[:PORT] or mqtts://HOST[:PORT], got \"http://x\""),
        ("push-topic-prefix = a/+/b", "line 1: push-topic-prefix: expected a topic prefix without + or # (default liveactivities), got \"a/+/b\""),
        ("push-password-file = secret.txt",
         "line 1: push-password-file: expected the path of a file holding the password, got \"secret.txt\" (an absolute path)"),
        ("push-colour = red", "line 1: unknown key \"push-colour\""),
    ])
    func badPushLinesAreNamedAndIgnored(line: String, message: String) {
        let (config, problems) = DaemonConfig.parse(line)
        #expect(config.push == DaemonConfig().push)
        #expect(problems.first?.hasPrefix(message) == true, "\(problems)")
    }
}
