import ActivityModel
import Testing
@testable import Notifications

/// A card with segments, per server: `value` servers keep their bar and gain the segment text
/// (escaped like the body); the others get a text bar with the boundaries; one segment changes nothing.
@Suite(.timeLimit(.minutes(2)))
struct SegmentCardTests {
    static let fast = SegmentedProgress(
        segments: [ActivitySegment(label: "Fasting", share: 2.0 / 3, state: .current, fill: 0.75),
                   ActivitySegment(label: "Eating window", share: 1.0 / 3, state: .upcoming, fill: 0)],
        points: [ActivityPoint(position: 2.0 / 3, label: "Eating window")], position: 0.5,
        summary: "Fasting 12h of 16h · then Eating <window> 8h")

    static func card(_ segments: SegmentedProgress?) -> Card {
        Card(appName: "Fasting", title: "Fasting · 16:8", body: "12h of 16h", progress: 0.75, segments: segments)
    }

    @Test func dunstKeepsItsBarAndGainsTheSegmentText() {
        let request = NotificationRequest.make(card: Self.card(Self.fast), profile: NotificationRequestTests.dunst, alert: nil)
        #expect(request.hints["value"] == .int32(75))
        #expect(request.body == "12h of 16h\nFasting 12h of 16h · then Eating &lt;window&gt; 8h")
    }

    @Test func textCardsGetABarWithBoundaries() {
        let request = NotificationRequest.make(card: Self.card(Self.fast), profile: NotificationRequestTests.xfce, alert: nil)
        #expect(request.hints["value"] == nil)
        #expect(request.body == "12h of 16h\n▰▰▰▰▰▰▰▰▰▱▱▱▱│▱▱▱▱▱▱▱ 75%")
    }

    @Test func oneSegmentIsThePlainCard() {
        var single = Self.fast
        single.segments = [ActivitySegment(label: "Focus", share: 1, state: .current, fill: 0.75)]
        for profile in [NotificationRequestTests.dunst, NotificationRequestTests.xfce, NotificationRequestTests.gnome] {
            #expect(NotificationRequest.make(card: Self.card(single), profile: profile, alert: nil)
                    == NotificationRequest.make(card: Self.card(nil), profile: profile, alert: nil))
        }
    }

    @Test func stepsWithoutProgressStillFillDunstsBar() {
        let steps = SegmentedProgress(
            segments: (1...4).map { ActivitySegment(label: "Step \($0)", share: 0.25, state: $0 < 2 ? .done : $0 == 2 ? .current : .upcoming,
                                                    fill: $0 < 2 ? 1 : 0) },
            points: [], position: 0.25, summary: "Step 2 · step 2 of 4 · then Step 3")
        let card = Card(appName: "Build", title: "Build", segments: steps)
        #expect(NotificationRequest.make(card: card, profile: NotificationRequestTests.dunst, alert: nil).hints["value"] == .int32(25))
        #expect(NotificationRequest.make(card: card, profile: NotificationRequestTests.xfce, alert: nil).body == "▰▰▰▰▰│▱▱▱▱▱│▱▱▱▱▱│▱▱▱▱▱")
    }
}
