import ActivityModel
import DBus
import Foundation
import Push
@testable import PushLink
import Testing
import TestSupport
@testable import LiveActivitiesService

/// Issue 18, points 1 and 3, for push: the values inside a push message (`aps.stale-date`,
/// `dismissal-date`, `content-state` and `attributes`) are built into the bus's own requests
/// (`PushRequests`, handed to `start`, `update` and `end`), so they meet the same checks as a
/// bus call. On `main`, each message below was applied and
/// crashed the daemon (or, with a NUL, broke every later `Get`); now each is rejected with
/// `InvalidArgs` and nothing changes. The service runs in-process with push state but no broker.
@Suite(.timeLimit(.minutes(5))) struct HostilePushValueTests {
    static let startToken = "0123456789abcdef0123456789abcdef"

    /// A hostile payload and whether it goes to the push-to-start topic (else the live activity's channel).
    static let payloads: [(String, Bool)] = [
        (#"{"aps":{"event":"start","timestamp":1700000100,"attributes-type":"generic","attributes":{"timer-end":1e300},"content-state":{"title":"x"}}}"#, true),
        (#"{"aps":{"event":"start","timestamp":1700000100,"attributes-type":"generic","stale-date":1e300,"content-state":{"title":"x"}}}"#, true),
        (#"{"aps":{"event":"start","timestamp":1700000100,"attributes-type":"generic","content-state":{"title":"evil\u0000tail"}}}"#, true),
        (#"{"aps":{"event":"update","timestamp":1700000100,"stale-date":9.3e18,"content-state":{"title":"x"}}}"#, false),
        (#"{"aps":{"event":"update","timestamp":1700000100,"content-state":{"title":"evil\u0000tail"}}}"#, false),
        (#"{"aps":{"event":"end","timestamp":1700000100,"dismissal-date":1e300}}"#, false),
    ]

    @Test(arguments: payloads.indices)
    func aHostilePushValueIsRejectedAndChangesNothing(index: Int) throws {
        let (payload, toStart) = Self.payloads[index]
        let world = try ServiceWorld(cards: false)
        let token = Self.startToken
        let pushFile = world.paths.stateDirectory + "/push.json"
        let outcome: (before: String?, after: String?, count: Int, rejected: Int) = world.onService { service in
            _ = try? service.start(kind: "generic", attributes: [:], state: ["title": .string("kept")],
                                   options: ["id": .string("live")])
            var registry = PushRegistry.fresh()
            registry.startTokens["generic"] = token
            registry.activities["live", default: PushRegistry.ActivityEntry()].channel = "chan"
            let push = PushState(bridge: PushBridge(topics: PushTopics(prefix: "la")), registry: registry,
                                 path: pushFile)
            service.push.running = push
            let before = (try? service.properties(id: "live")).map { "\($0)" }
            let topic = toStart ? push.topics.start(token) : push.topics.channel("chan")
            service.push.handleMessage(topic: topic, payload: Array(payload.utf8), size: payload.utf8.count)
            return (before, (try? service.properties(id: "live")).map { "\($0)" }, service.list().count, push.counts.rejected)
        }
        #expect(outcome.rejected == 1, "the message is rejected: \(payload)")
        #expect(outcome.count == 1, "nothing was started")
        #expect(outcome.before != nil && outcome.after == outcome.before, "the live activity is unchanged")
        let saved = (try? String(contentsOfFile: world.paths.stateFile, encoding: .utf8)) ?? ""
        #expect(!saved.contains("e+300") && !saved.contains("e+18") && !saved.contains("\\u0000"), "nothing hostile was stored")
    }
}
