import DBus
import Foundation
import Testing
import TestSupport

/// Push over a real mosquitto: tokens, push-to-start and channels applied through the same
/// validation as the bus, stale and bad messages refused without harm.
@Suite("Push through a real broker", .serialized, .timeLimit(.minutes(5)))
struct PushBrokerTests {
    @Test func updateOnTheActivityTokenIsApplied() throws {
        let w = try PushWorld()
        #expect(w.waitForStatus { $0 == "connected" }, "status: \(w.status)")
        let (id, token) = try w.startWithToken(state: ["title": .string("Build 42"), "progress": .double(0.1)])
        #expect(token.count == 32 && token.allSatisfy(\.isHexDigit), "a 128-bit hex token: \(token)")
        let announced = w.client.waitFor {
            w.client.signals.contains { message in
                message.member == "PropertiesChanged" && message.path?.hasSuffix("/activity/\(id)") == true
                    && ((try? message.arguments())?.dropFirst().first?.vardict?["PushToken"]?.unwrapped.string == token)
            }
        }
        #expect(announced, "the token is announced with PropertiesChanged")
        let staleAt = PushWorld.now() + 7200
        try w.publish("activity", token, aps: ["timestamp": PushWorld.now(), "event": "update",
                                              "content-state": ["title": "Build 42", "body": "linking", "progress": 0.8],
                                              "alert": ["title": "Almost there", "body": "linking"], "stale-date": staleAt,
                                              "relevance-score": 30])
        #expect(w.waitForReceived(1))
        #expect(w.received.first?.id == id && w.received.first?.event == "update" && w.received.first?.applied == true)
        let now = try w.client.get(id)
        #expect(now["body"]?.string == "linking")
        #expect(now["progress"]?.double == 0.8)
        #expect(now["stale-at"]?.integer == Int64(staleAt))
        #expect(now["relevance"]?.double == 30)
        #expect(w.fixture.waitForNotifies(2))
        let texts = (w.fixture.recorder?.calls ?? []).map { $0.summary + " " + $0.body }
        #expect(texts.contains { $0.contains("linking") }, "the card shows the pushed state: \(texts)")
        #expect(!texts.contains { $0.contains(token) }, "the token is never on the card")
        #expect(!((try w.client.property("CompactText")).string ?? "").contains(token))
        #expect(!w.fixture.daemon.log().contains(token), "the token is never logged in full")
    }

    @Test func endOnTheTokenEndsAndUnsubscribes() throws {
        let w = try PushWorld()
        let (id, token) = try w.startWithToken()
        let (otherID, otherToken) = try w.startWithToken(state: ["title": .string("other")])
        try w.publish("activity", token, aps: ["timestamp": PushWorld.now(), "event": "end",
                                              "content-state": ["body": "done"], "dismissal-date": PushWorld.now() + 3600])
        #expect(w.waitForReceived(1))
        #expect(try w.client.get(id)["status"]?.string == "ended")
        #expect(try w.client.get(id)["state"]?.vardict?["body"]?.string == "done", "the final content-state is merged")
        // A message on the ended activity's token is no longer delivered: the next one, on
        // another token, is the only one the daemon hears.
        try w.publish("activity", token, aps: ["timestamp": PushWorld.now(), "event": "update", "content-state": ["body": "late"]])
        try w.publish("activity", otherToken, aps: ["timestamp": PushWorld.now(), "event": "update", "content-state": ["body": "x"]])
        #expect(w.waitForReceived(2))
        #expect(w.received.map(\.id) == [id, otherID], "\(w.received)")
        let saved = try String(contentsOf: w.fixture.daemon.stateDirectory.appendingPathComponent("push.json"), encoding: .utf8)
        #expect(!saved.contains(token), "the ended activity's token is forgotten")
    }

    @Test func endWithAPastDismissalDateClosesAtOnce() throws {
        let w = try PushWorld(recorderName: nil)
        let (id, token) = try w.startWithToken()
        try w.publish("activity", token, aps: ["timestamp": PushWorld.now(), "event": "end", "dismissal-date": 0])
        #expect(w.waitForReceived(1))
        #expect(w.received.first?.applied == true)
        #expect(w.client.waitFor { w.client.error { _ = try w.client.get(id) }?.name.hasSuffix("NotFound") == true },
                "dismissed at once, the activity leaves the bus")
    }

    @Test func pushToStartStartsAnActivityOfTheTokensKind() throws {
        let w = try PushWorld()
        #expect(w.waitForStatus { $0 == "connected" })
        let token = try #require(try w.client.call("PushToStartToken", [.string("generic")]).first?.string)
        #expect(try w.client.call("PushToStartToken", [.string("generic")]).first?.string == token, "stable per kind")
        #expect(try w.client.call("PushToStartToken", [.string("focus")]).first?.string != token)
        try w.publish("start", token, aps: ["timestamp": PushWorld.now(), "event": "start", "attributes-type": "generic",
                                           "attributes": [:] as [String: Any], "content-state": ["title": "Delivery", "body": "on its way"],
                                           "relevance-score": 5, "input-push-token": 1])
        #expect(w.waitForReceived(1))
        let started = try #require(w.received.first)
        #expect(started.applied && started.event == "start", "\(started)")
        let properties = try w.client.get(started.id)
        #expect(properties["kind"]?.string == "generic" && properties["title"]?.string == "Delivery")
        #expect(properties["relevance"]?.double == 5)
        #expect(w.client.waitFor(timeout: 20) { !((try? w.client.get(started.id)["push-token"]?.string) ?? "").isEmpty },
                "input-push-token gives the started activity an update token")
    }

    @Test func channelMessageUpdatesEveryFollower() throws {
        let w = try PushWorld()
        let first = try w.client.start("generic", state: ["title": .string("Match")], options: ["push-channel": .string("match-7")])
        let second = try w.client.start("generic", state: ["title": .string("Match")], options: ["push-channel": .string("match-7")])
        let bystander = try w.client.start("generic", state: ["title": .string("other")])
        #expect(w.waitForStatus { $0 == "connected" })
        // The channel subscription is confirmed with the first SUBSCRIBE after the Start: a
        // token activity started afterwards is announced only after it, so wait for that.
        _ = try w.startWithToken()
        try w.publish("channel", "match-7", aps: ["timestamp": PushWorld.now(), "event": "update", "content-state": ["body": "2 : 1"]])
        #expect(w.waitForReceived(2))
        #expect(Set(w.received.map(\.id)) == [first, second])
        #expect(try w.client.get(first)["body"]?.string == "2 : 1")
        #expect(try w.client.get(second)["body"]?.string == "2 : 1")
        #expect(try w.client.get(bystander)["body"]?.string != "2 : 1", "a channel reaches its followers only")
    }

    @Test func olderTimestampIsIgnored() throws {
        let w = try PushWorld()
        let (id, token) = try w.startWithToken()
        // (Timestamps more than an hour ahead of the clock are refused since issue 18.)
        try w.publish("activity", token, aps: ["timestamp": PushWorld.now() + 60, "event": "update", "content-state": ["body": "newer"]])
        try w.publish("activity", token, aps: ["timestamp": PushWorld.now() - 1000, "event": "update", "content-state": ["body": "older"]])
        #expect(w.waitForReceived(2))
        #expect(w.received.map(\.applied) == [true, false])
        #expect(w.received.last?.reason.hasPrefix("Stale") == true, "\(w.received)")
        #expect(try w.client.get(id)["body"]?.string == "newer")
    }

    @Test func badMessagesAreRejectedAndTheDaemonGoesOn() throws {
        let w = try PushWorld()
        let (id, token) = try w.startWithToken(state: ["title": .string("safe"), "body": .string("before")])
        let startToken = try #require(try w.client.call("PushToStartToken", [.string("generic")]).first?.string)
        let big = String(repeating: "x", count: 5000)
        try w.publish("activity", token, aps: ["timestamp": PushWorld.now(), "event": "update", "content-state": ["body": big]])
        try w.publishRaw("activity", token, "{\"aps\": {\"event\": \"update\", ")
        try w.publish("start", startToken, aps: ["timestamp": PushWorld.now(), "event": "start", "attributes-type": "nosuchkind",
                                                "content-state": ["title": "x"]])
        try w.publish("activity", token, aps: ["timestamp": PushWorld.now(), "event": "update", "content-state": ["progress": "abc"]])
        #expect(w.waitForReceived(4))
        let reasons = w.received.map(\.reason)
        #expect(w.received.allSatisfy { !$0.applied })
        #expect(reasons[0].hasPrefix("PayloadTooLarge"), "\(reasons)")
        #expect(reasons[1].hasPrefix("InvalidArgs: not JSON"), "\(reasons)")
        #expect(reasons[2].hasPrefix("UnknownKind"), "\(reasons)")
        #expect(reasons[3] == "InvalidArgs: state key \"progress\": expected a number from 0 to 1, got string \"abc\"", "\(reasons)")
        #expect(w.fixture.daemon.isRunning)
        #expect(try w.client.get(id)["body"]?.string == "before", "a refused message changes nothing")
        #expect(try w.client.list().count == 1, "no activity was started")
        #expect(w.fixture.daemon.log().contains("4 rejected so far"), "each rejection is logged and counted")
    }

    @Test func pushOptionsWhenPushIsOffAreRefused() throws {
        let f = try DaemonFixture(recorderName: nil)
        #expect(try f.client.property("PushStatus").string == "off")
        let refused = f.client.error { _ = try f.client.start("generic", state: ["title": .string("t")], options: ["push-type": .string("token")]) }
        #expect(refused?.name == "org.freedesktop.DBus.Error.NotSupported")
        #expect(f.client.error { try f.client.call("PushToStartToken", [.string("generic")]) }?.name == "org.freedesktop.DBus.Error.NotSupported")
        let bad = f.client.error { _ = try f.client.start("generic", state: ["title": .string("t")], options: ["push-type": .string("apns")]) }
        #expect(bad?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(bad?.message.contains("push-type") == true)
        #expect(try f.client.list().isEmpty, "a refused Start changes nothing")
    }
}

/// The CLI's push commands against a real broker.
@Suite("Push from the command line", .serialized, .timeLimit(.minutes(5)))
struct PushCLITests {
    @Test func startWithPushPrintsTheTokenAndTokenCommandsAgree() throws {
        let w = try PushWorld(recorderName: nil)
        let started = try w.fixture.cli(["start", "generic", "title=CLI", "--push", "--id", "cli_push"])
        #expect(started.status == 0, "\(started.stderr)")
        let words = started.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(words.count == 2 && words.first == "cli_push", "prints ID TOKEN: \(started.stdout)")
        let token = words.last ?? ""
        #expect(token.count == 32)
        #expect(try w.fixture.cli(["push-token", "cli_push"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == token)
        let startToken = try w.fixture.cli(["push-to-start-token", "generic"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(startToken == (try w.client.call("PushToStartToken", [.string("generic")]).first?.string))
        let unknown = try w.fixture.cli(["push-to-start-token", "nosuchkind"])
        #expect(unknown.status == 1 && unknown.stderr.contains("UnknownKind"), "\(unknown.stderr)")
        let none = try w.fixture.cli(["start", "generic", "title=plain", "--id", "plain"])
        #expect(none.status == 0)
        let noToken = try w.fixture.cli(["push-token", "plain"])
        #expect(noToken.status == 1 && noToken.stderr.contains("no push token"), "\(noToken.stderr)")
        try w.publish("activity", token, aps: ["timestamp": PushWorld.now(), "event": "update", "content-state": ["body": "from cli"]])
        #expect(w.waitForReceived(1))
        #expect(try w.client.get("cli_push")["body"]?.string == "from cli")
    }
}

/// docs/push.md's server script, run as written against a real broker (only the host is
/// rewritten): the promise that `mosquitto_pub` and a token are all a server needs.
@Suite("docs/push.md server script", .timeLimit(.minutes(5)))
struct PushDocsTests {
    @Test func serverScriptStartsUpdatesAndEnds() throws {
        let w = try PushWorld(recorderName: nil)
        let lines = try ReadmeTests.block(after: "## A server script", in: "../../docs/push.md")
        #expect(lines.count == 7)
        var environment = w.fixture.daemon.environment
        environment["PATH"] = BuiltProducts.directory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let script = "set -e\n" + lines.joined(separator: "\n")
            .replacingOccurrences(of: "-h broker.example.org", with: "-h 127.0.0.1 -p \(w.broker.port)")
        let result = try runCommand("/bin/bash", ["-c", script], environment: environment, timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(w.waitForReceived(4), "\(w.received)")
        #expect(w.received.allSatisfy { $0.applied }, "\(w.received)")
        #expect(try w.client.get("match")["body"]?.string == "1 : 0", "the channel update")
        #expect(try w.client.get("build")["status"]?.string == "ended")
        #expect(try w.client.get("build")["state"]?.vardict?["body"]?.string == "Passed")
        let started = try #require(w.received.first(where: { $0.event == "start" }))
        #expect(try w.client.get(started.id)["title"]?.string == "Delivery")
    }
}
