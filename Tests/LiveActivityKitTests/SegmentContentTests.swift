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
            let drawn = try #require(found.content.segments)
            #expect(drawn.segments.map(\.label) == ["Step 1", "Step 2", "Step 3"])
            #expect(drawn.segments.map(\.state) == [.current, .upcoming, .upcoming])
            #expect(drawn.segments.allSatisfy { abs(($0.share ?? 0) - 1.0 / 3) < 1e-9 }, "the daemon's shares: equal parts")
            #expect(drawn.currentStep == 1 && drawn.current?.label == "Step 1")
            #expect(drawn.text == "Step 1 · step 1 of 3 · then Step 2")
            #expect(!drawn.isKindPhases, "the client's own segments")

            // Sent back as read, they change nothing the daemon draws.
            let before = try world.get(activity.id)["segments"]
            try await found.throwingUpdate(found.content)
            #expect(try world.get(activity.id)["segments"] == before)
            #expect(Activity<PizzaDeliveryAttributes>.activities.first { $0.id == activity.id }?.content.segments == drawn)
        }
    }

    @Test("Segments read from a Get reply: typed when well formed, nil when absent or unknown, the client's when it sent keys")
    func drawnSegmentsFromAReply() {
        func row(_ label: String, _ share: Double, _ state: String, _ fill: Double) -> DBusValue {
            .structure([.string(label), .double(share), .string(state), .double(fill)])
        }
        let properties: [String: DBusValue] = [
            "segments": .array(elementSignature: "(sdsd)", [row("Fetch", 0.25, "done", 1), row("Build", 0.75, "current", 0.5)]),
            "points": .array(elementSignature: "(ds)", [.structure([.double(0.9), .string("Review")])]),
            "segment-text": .string("Build · step 2 of 2"),
        ]
        let mine = DrawnSegments.read(properties: properties, state: ["segments": .string("Fetch:0.25|Build:0.75"), "step": .int32(2)])
        #expect(mine?.segments.map(\.state) == [.done, .current] && mine?.segments.map(\.fill) == [1, 0.5])
        #expect(mine?.points == [ProgressSegments.Point(at: 0.9, label: "Review")] && mine?.text == "Build · step 2 of 2")
        #expect(mine?.currentStep == 2 && mine?.isKindPhases == false)
        let kinds = DrawnSegments.read(properties: properties, state: ["step": .int32(2)])
        #expect(kinds?.isKindPhases == true && kinds?.currentStep == nil, "without segments or steps keys they are the kind's")
        var unknown = properties
        unknown["segments"] = .array(elementSignature: "(sdsd)", [row("Fetch", 0.25, "done", 1), row("Build", 0.75, "later", 0)])
        #expect(DrawnSegments.read(properties: unknown, state: [:]) == nil, "a state it does not know is not guessed")
        #expect(DrawnSegments.read(properties: ["segments": .array(elementSignature: "(sdsd)", [])], state: [:]) == nil)
        #expect(DrawnSegments.read(properties: [:], state: [:]) == nil)
    }

    @Test("A 16:8 fast's own phases come back typed, with state, fill, points and text, and are not sent back")
    func aKindsPhasesComeBackTyped() async throws {
        let world = try KitWorld()
        try await world.run {
            // Started 12 h ago: three quarters of the fasting segment are behind.
            let started = Int64(Date().timeIntervalSince1970) - 12 * 3600
            let fast = try Activity<FastingKindAttributes>.request(attributes: FastingKindAttributes(protocolName: "16:8", startTime: started),
                                                                   content: ActivityContent(state: .init(), staleDate: nil))
            let found = try #require(Activity<FastingKindAttributes>.activities.first { $0.id == fast.id })
            let drawn = try #require(found.content.segments, "the kind's segments read back from the bus")
            #expect(drawn.isKindPhases)
            #expect(drawn.segments.map(\.label) == ["Fasting", "Eating window"])
            #expect(drawn.segments.map(\.state) == [.current, .upcoming])
            let shares = drawn.segments.compactMap(\.share)
            #expect(shares.count == 2 && abs(shares[0] - 2.0 / 3) < 1e-9 && abs(shares[1] - 1.0 / 3) < 1e-9)
            let fills = drawn.segments.compactMap(\.fill)
            #expect(fills.count == 2 && abs(fills[0] - 0.75) < 0.02 && fills[1] == 0, "\(fills)")
            #expect(drawn.points == [ProgressSegments.Point(at: 2.0 / 3, label: "Eating window")])
            #expect(drawn.currentStep == nil && drawn.current?.label == "Fasting")
            #expect(drawn.text.hasPrefix("Fasting 12h") && drawn.text.hasSuffix("of 16h · then Eating window 8h"), "\(drawn.text)")

            // The fasting kind takes no segment keys: its own phases sent back as read are left
            // out of the update, so it is accepted and the kind keeps drawing them.
            try await found.throwingUpdate(found.content)
            #expect(try world.get(fast.id)["state"]?.vardict?["segments"] == nil)

            // Changed by the client they become its own, and the kind refuses them by name.
            var edited = found.content
            edited.segments?.currentStep = 2
            do throws(ActivityAuthorizationError) {
                try await found.throwingUpdate(edited)
                Issue.record("the fasting kind took client segment keys")
            } catch {
                #expect(error.code == .invalidContent && error.message.contains("unknown state key"), "\(error)")
            }
        }
    }
}

/// The shipped `fasting` kind, requested through LiveActivityKit (its attributes as the kind names them).
struct FastingKindAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {}

    static var activityKind: String { "fasting" }

    var protocolName: String
    var startTime: Int64

    enum CodingKeys: String, CodingKey {
        case protocolName = "protocol"
        case startTime = "start-time"
    }
}
