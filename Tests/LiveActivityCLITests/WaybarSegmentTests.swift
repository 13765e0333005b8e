import ActivityModel
import DBus
import Foundation
@testable import LiveActivityCLI
import Testing

/// `watch --format waybar` with a segmented activity: extra fields for scripts, and the bar with
/// its boundaries and the segment text in the tooltip waybar shows.
@Suite(.timeLimit(.minutes(2))) struct WaybarSegmentTests {
    static let getReply: [String: DBusValue] = [
        "segments": .array(elementSignature: "(sdsd)", [
            .structure([.string("Fasting"), .double(2.0 / 3), .string("current"), .double(0.75)]),
            .structure([.string("Eating window"), .double(1.0 / 3), .string("upcoming"), .double(0)]),
        ]),
        "points": .array(elementSignature: "(ds)", [.structure([.double(2.0 / 3), .string("Eating window")])]),
        "segment-text": .string("Fasting 12h of 16h · then Eating window 8h"),
    ]

    @Test func waybarCarriesSegmentsPointsAndTheBar() throws {
        let segmented = try #require(SegmentReading.read(Self.getReply))
        let line = WatchFormat.waybar.line(.init(compactText: "⏳ 12:00", title: "Fasting · 16:8", body: "12h of 16h",
                                                 status: "active", progress: 0.75, segments: segmented))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["segment"] as? String == "Fasting")
        #expect(object["segment-text"] as? String == "Fasting 12h of 16h · then Eating window 8h")
        #expect(object["segment-bar"] as? String == "▰▰▰▰▰▰▰▰▰▱▱▱▱│▱▱▱▱▱▱▱")
        let segments = try #require(object["segments"] as? [[String: Any]])
        #expect(segments.map { $0["state"] as? String } == ["current", "upcoming"])
        #expect(segments.map { $0["label"] as? String } == ["Fasting", "Eating window"])
        let points = try #require(object["points"] as? [[String: Any]])
        #expect(points.first?["label"] as? String == "Eating window")
        #expect((object["tooltip"] as? String)?.contains("▰▰▰▰▰▰▰▰▰▱▱▱▱│▱▱▱▱▱▱▱\nFasting 12h of 16h") == true)
    }

    @Test func anActivityWithoutSegmentsHasNoSegmentFields() throws {
        #expect(SegmentReading.read([:]) == nil)
        let line = WatchFormat.waybar.line(.init(compactText: "x", progress: 0.5))
        #expect(!line.contains("segment"))
    }

    @Test func segmentsWithANonFiniteShareOrFillAreNotRead() {
        for (share, fill) in [(Double.nan, 0.5), (0.5, Double.infinity)] {
            let reply: [String: DBusValue] = ["segments": .array(elementSignature: "(sdsd)", [
                .structure([.string("A"), .double(share), .string("current"), .double(fill)]),
                .structure([.string("B"), .double(0.5), .string("upcoming"), .double(0)]),
            ])]
            #expect(SegmentReading.read(reply) == nil)
        }
    }
}
