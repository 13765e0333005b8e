import ActivityModel
import Foundation
import Notifications
import Testing
@testable import LiveActivitiesService

/// The card carries segments only when they are drawn apart (two or more), so a focus session's
/// one segment never makes a card that differs from the last one in nothing the server shows.
@Suite(.timeLimit(.minutes(2))) struct SegmentCardComposerTests {
    static let t0 = 1_700_000_000.0

    static func card(state: [String: Value]) throws -> Card {
        var registry = ActivityRegistry(catalog: ServiceTestKinds.catalog, idSeed: 1)
        _ = try registry.start(kind: "generic", attributes: [:], state: state, options: StartOptions(id: "b"), now: t0)
        let snapshot = ActivitySnapshot(activity: try #require(registry.activity("b")),
                                        rendered: try registry.render(id: "b", now: t0, timeZoneOffset: 0))
        return CardComposer.baseCard(of: snapshot, kindDisplayName: "Activity")
    }

    @Test func stepsTravelWithTheCard() throws {
        let card = try Self.card(state: ["title": .string("Build"), "steps": .int(3), "step": .int(2)])
        #expect(card.segments?.segments.map(\.state) == [.done, .current, .upcoming])
    }

    @Test func oneSegmentStaysOffTheCard() throws {
        let card = try Self.card(state: ["title": .string("Build"), "segments": .string("Everything")])
        #expect(card.segments == nil)
    }
}
