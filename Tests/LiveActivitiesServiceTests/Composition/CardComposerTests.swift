import ActivityModel
import Foundation
@testable import KDEJobs
import Notifications
import Testing
@testable import LiveActivitiesService
@testable import Tray

/// The card rules, as a table of moments: what the user sees on the card after an alert,
/// while it is held, when the hold ends, once the activity ended, and beside a KDE job.
@Suite(.timeLimit(.minutes(5))) struct CardComposerTests {
    static let t0 = 1_700_000_000.0

    /// A generic activity with a title, a body and progress, rendered at `now`; ended at `now` if asked.
    static func snapshot(ended: Bool = false, progress: Double = 0.42, now: Double = t0) throws -> ActivitySnapshot {
        var registry = ActivityRegistry(catalog: ServiceTestKinds.catalog, idSeed: 1)
        _ = try registry.start(kind: "generic", attributes: [:],
                               state: ["title": .string("Build"), "body": .string("Compiling"), "progress": .double(progress)],
                               options: StartOptions(id: "b"), now: t0)
        if ended { _ = try registry.end(id: "b", now: now) }
        let activity = try #require(registry.activity("b"))
        let rendered = try registry.render(id: "b", now: now, timeZoneOffset: 0)
        return ActivitySnapshot(activity: activity, rendered: rendered)
    }

    @Test func aRoutineCardIsTheRenderWithButtonsAndWholePercent() throws {
        let composed = CardComposer.compose(try Self.snapshot(), kindDisplayName: "Activity", alert: nil, hold: nil,
                                            lastCard: nil, besideJob: false, now: Self.t0)
        let expected = Card(appName: "Activity", title: "Build", body: "Compiling", iconName: "dialog-information",
                            progress: 0.42, buttons: [CardButton(key: "end", label: "End")], category: "x-liveactivities",
                            desktopEntry: "io.github.liveactivities")
        #expect(composed == ComposedCard(output: .show(expected, alert: nil), hold: nil, recomposeAt: nil))
    }

    @Test func theSameCardIsNotSentTwice() throws {
        let snapshot = try Self.snapshot()
        let card = CardComposer.baseCard(of: snapshot, kindDisplayName: "Activity")
        let composed = CardComposer.compose(snapshot, kindDisplayName: "Activity", alert: nil, hold: nil,
                                            lastCard: card, besideJob: false, now: Self.t0)
        #expect(composed.output == .unchanged)
    }

    @Test func anAlertPopsUpWithItsSoundAndIsHeldFifteenSeconds() throws {
        let snapshot = try Self.snapshot()
        let alert = Alert(title: "Half way", body: "Keep going", sound: "bell")
        let composed = CardComposer.compose(snapshot, kindDisplayName: "Activity", alert: alert, hold: nil,
                                            lastCard: nil, besideJob: false, now: Self.t0)
        guard case .show(let card, let cardAlert) = composed.output else {
            Issue.record("an alert always sends the card: \(composed.output)")
            return
        }
        #expect(card.title == "Half way")
        #expect(card.body == "Keep going\nCompiling")
        #expect(card.quiet == false)
        #expect(cardAlert == CardAlert(soundName: "bell"))
        #expect(composed.hold == AlertHold(title: "Half way", body: "Keep going", until: Self.t0 + 15))
        #expect(composed.recomposeAt == Self.t0 + 15)
    }

    /// Moments after an alert at t0: (seconds later, the card's title then, whether the hold remains).
    @Test(arguments: [(1.0, "Half way", true), (14.9, "Half way", true), (15.0, "Build", false), (60.0, "Build", false)])
    func theHoldKeepsTheAlertTextUntilItEnds(after: Double, title: String, held: Bool) throws {
        let hold = AlertHold(title: "Half way", body: "", until: Self.t0 + 15)
        let now = Self.t0 + after
        let composed = CardComposer.compose(try Self.snapshot(now: now), kindDisplayName: "Activity", alert: nil,
                                            hold: hold, lastCard: nil, besideJob: false, now: now)
        guard case .show(let card, nil) = composed.output else {
            Issue.record("a routine card: \(composed.output)")
            return
        }
        #expect(card.title == title)
        #expect(card.body == "Compiling", "an empty alert body adds no line")
        #expect((composed.hold != nil) == held)
        #expect(composed.recomposeAt == nil, "only a new alert asks to be composed again")
    }

    @Test func theFinalCardDropsTheHoldAndTheButtons() throws {
        let hold = AlertHold(title: "Half way", body: "Keep going", until: Self.t0 + 15)
        let composed = CardComposer.compose(try Self.snapshot(ended: true, now: Self.t0 + 5), kindDisplayName: "Activity",
                                            alert: nil, hold: hold, lastCard: nil, besideJob: false, now: Self.t0 + 5)
        guard case .show(let card, nil) = composed.output else {
            Issue.record("the final card is sent: \(composed.output)")
            return
        }
        #expect(card.title == "Build")
        #expect(card.buttons.isEmpty)
        #expect(composed.hold == nil)
    }

    @Test func besideAJobTheCardIsWithdrawnUnlessAnAlertIsHeld() throws {
        let snapshot = try Self.snapshot()
        let shown = CardComposer.baseCard(of: snapshot, kindDisplayName: "Activity")
        let withdrawn = CardComposer.compose(snapshot, kindDisplayName: "Activity", alert: nil, hold: nil,
                                             lastCard: shown, besideJob: true, now: Self.t0)
        #expect(withdrawn.output == .withdraw)
        let nothingUp = CardComposer.compose(snapshot, kindDisplayName: "Activity", alert: nil, hold: nil,
                                             lastCard: nil, besideJob: true, now: Self.t0)
        #expect(nothingUp.output == .unchanged, "no card on screen: nothing to withdraw")

        let alerted = CardComposer.compose(snapshot, kindDisplayName: "Activity", alert: Alert(title: "Done soon"), hold: nil,
                                           lastCard: nil, besideJob: true, now: Self.t0)
        guard case .show(let card, .some) = alerted.output else {
            Issue.record("the alert comes as a card beside the job: \(alerted.output)")
            return
        }
        #expect(card.progress == nil, "the job draws the bar")
        #expect(card.quiet == false, "at normal urgency, so the popup stays")
        #expect(card.buttons == [CardButton(key: "end", label: "End")])
    }

    @Test func theJobShowsLiveProgressOnlyWhileEnabled() throws {
        let snapshot = try Self.snapshot(progress: 0.5)
        #expect(CardComposer.job(of: snapshot, kindDisplayName: "Activity", enabled: true)
            == KDEJobContent(title: "Build", message: "Compiling", percent: 50, suspended: false, appName: "Activity",
                             iconName: "dialog-information"))
        #expect(CardComposer.job(of: snapshot, kindDisplayName: "Activity", enabled: false) == nil)
        #expect(CardComposer.job(of: try Self.snapshot(ended: true, now: Self.t0 + 1), kindDisplayName: "Activity",
                                 enabled: true) == nil)
    }

    @Test func theTrayShowsTheTopActivityOrIdle() throws {
        let snapshot = try Self.snapshot()
        let tray = CardComposer.tray(live: [snapshot], compactText: "Build 42%")
        #expect(tray == TrayState(isLive: true, cardTitle: "Build", cardBody: "Compiling", iconName: "dialog-information",
                                  label: "Build 42%",
                                  menu: [TrayMenuSection(activityID: "b", title: "Build", body: "Compiling",
                                                         actions: ActivityActions.of(snapshot))]))
        #expect(tray.menu.first?.actions.map(\.key) == ["end"], "the card's buttons")
        #expect(CardComposer.tray(live: [], compactText: "") == .idle)
    }
}
