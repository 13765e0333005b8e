import ActivityModel
import DBus
import Testing
@testable import LiveActivitiesService

/// Under a flood of calls the daemon publishes in paced rounds (a bucket of eight rounds at
/// once, refilled at eight per interval, so a round beyond it waits one token, not the rest of
/// the interval): every Update still gets its ActivityUpdated, in order, but the activity is
/// rendered and announced once per round with its latest values (issue 19 point 1; the wait
/// bounded by one token: issue 29).
@Suite(.timeLimit(.minutes(2))) struct PublishPacingTests {
    static let interval = 0.05
    static var token: Double { interval / Double(ActivityService.publishBurst) }

    @Test func aFloodIsPublishedInOneRoundWithEverySignalAndTheLatestValues() throws {
        let world = try ServiceWorld(publishInterval: Self.interval)
        let id = try world.client.start("generic", state: ["title": .string("Build")])
        world.sync()
        #expect(world.client.received("ActivityStarted").count == 1, "a call after a quiet time is published at once")
        world.client.forgetSignals()
        for step in 1...10 { try world.client.update(id, ["title": .string("Build"), "body": .string("step \(step)")]) }
        world.sync()
        // The Start's round and those of the first seven updates ran at once; the rest wait.
        #expect(world.client.received("ActivityUpdated").count == ActivityService.publishBurst - 1,
                "the flood beyond the burst waits for the next token")
        world.advance(by: Self.token * 0.9)
        #expect(world.client.received("ActivityUpdated").count == ActivityService.publishBurst - 1,
                "not before the token")
        world.advance(by: Self.token * 0.1)
        #expect(world.client.received("ActivityUpdated").count == 10,
                "one ActivityUpdated per Update, none lost, one token after the burst (6.25 ms), not the interval's end")
        let bodies = world.client.propertiesChanged(on: BusNames.activityPath(id)).compactMap { $0["Body"]?.string }
        #expect(bodies == (1...7).map { "step \($0)" } + ["step 10"],
                "one PropertiesChanged for the last round, with the latest values: \(bodies)")
    }

    @Test func aSteadyClientBelowThePaceIsNeverHeldBack() throws {
        let world = try ServiceWorld(publishInterval: Self.interval)
        let id = try world.client.start("generic", state: ["title": .string("Build")])
        world.sync()
        world.client.forgetSignals()
        for step in 1...40 {
            try world.client.update(id, ["title": .string("Build"), "body": .string("step \(step)")])
            world.sync()
            #expect(world.client.received("ActivityUpdated").count == step, "update \(step) is published at once")
            world.advance(by: 0.01)  // 100 a second, below the 160 of the pace
        }
    }

    @Test func aSustainedFloodGetsOneRoundPerToken() throws {
        let world = try ServiceWorld(publishInterval: Self.interval)
        let id = try world.client.start("generic", state: ["title": .string("Build")])
        world.sync()
        world.client.forgetSignals()
        // An update every millisecond for 200 ms: the bucket's 7 left, then one round per token.
        for step in 1...200 {
            try world.client.update(id, ["title": .string("Build"), "body": .string("step \(step)")])
            world.sync()
            world.advance(by: 0.001)
        }
        world.advance(by: Self.token)
        let rounds = world.client.propertiesChanged(on: BusNames.activityPath(id)).count
        let paced = 7 + Int((0.2 / Self.token).rounded(.up))
        #expect(rounds >= paced - 2 && rounds <= paced + 1, "\(rounds) rounds for 200 updates in 200 ms, about \(paced)")
        #expect(world.client.received("ActivityUpdated").count == 200, "none lost")
    }
}
