import ActivityModel
import DBus
import Testing
@testable import LiveActivitiesService

/// Under a flood of calls the daemon publishes in paced rounds (the first eight of an
/// interval at once, then one at its end): every Update still gets its ActivityUpdated, in
/// order, but the activity is rendered and announced once per round with its latest values
/// (issue 19 point 1).
@Suite(.timeLimit(.minutes(2))) struct PublishPacingTests {
    @Test func aFloodIsPublishedInOneRoundWithEverySignalAndTheLatestValues() throws {
        let world = try ServiceWorld(publishInterval: 0.05)
        let id = try world.client.start("generic", state: ["title": .string("Build")])
        world.sync()
        #expect(world.client.received("ActivityStarted").count == 1, "a call after a quiet time is published at once")
        world.client.forgetSignals()
        for step in 1...10 { try world.client.update(id, ["title": .string("Build"), "body": .string("step \(step)")]) }
        world.sync()
        // The Start's round and those of the first seven updates ran at once; the rest wait.
        #expect(world.client.received("ActivityUpdated").count == ActivityService.publishBurst - 1,
                "the flood beyond the burst waits for the interval's end")
        world.advance(by: 0.05)
        #expect(world.client.received("ActivityUpdated").count == 10, "one ActivityUpdated per Update, none lost")
        let bodies = world.client.propertiesChanged(on: BusNames.activityPath(id)).compactMap { $0["Body"]?.string }
        #expect(bodies == (1...7).map { "step \($0)" } + ["step 10"],
                "one PropertiesChanged for the last round, with the latest values: \(bodies)")
    }
}
