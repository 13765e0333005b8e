import DBus
import Foundation
import TestSupport
import Testing
@testable import LiveActivityKit

/// `ActivityContent.segments`: a typed segmented progress that reaches the daemon's bus
/// properties and card, and comes back typed from a fresh lookup.
@Suite("LiveActivityKit segments", .timeLimit(.minutes(3)))
struct SegmentContentTests {
    @Test("Steps sent as a typed value are drawn by the daemon and read back typed")
    func stepsRoundTrip() async throws {
        let world = try KitWorld()
        try await world.run {
            let content = ActivityContent(state: PizzaDeliveryAttributes.ContentState(driverName: "Ana", stopsAway: 3, onTheWay: true),
                                          staleDate: nil,
                                          segments: ProgressSegments(segments: [.init("Oven", share: 0.25), .init("Road", share: 0.75)],
                                                                     currentStep: 2, points: [.init(at: 0.9, label: "Door")]))
            let activity = try Activity<PizzaDeliveryAttributes>.request(attributes: PizzaDeliveryAttributes(orderNumber: "A-18"),
                                                                         content: content)
            let held = try world.get(activity.id)
            guard case .array(_, let rows)? = held["segments"] else {
                Issue.record("no segments on the bus")
                return
            }
            let states = rows.compactMap { row -> String? in
                guard case .structure(let fields) = row else { return nil }
                return fields[2].string
            }
            #expect(states == ["done", "current"])
            #expect(held["segment-text"]?.string == "Road · step 2 of 2")
            let card = try #require(world.waitForCard { $0.summary == "Pizza Delivery" })
            #expect(card.body.hasPrefix("Driver name: Ana"), "the segment keys are not listed as fields")

            var later = content
            later.segments = .steps(3, current: 1)
            await activity.update(later)
            let found = try #require(Activity<PizzaDeliveryAttributes>.activities.first { $0.id == activity.id })
            #expect(found.content.segments == ProgressSegments(segments: [.init("Step 1"), .init("Step 2"), .init("Step 3")], currentStep: 1))
        }
    }
}
