import Foundation
import Testing
@testable import ActivityModel

/// The shipped timer kinds (focus, fasting, generic with a timer) driven by an injected clock.
@Suite(.timeLimit(.minutes(2))) struct TimerKindTests {
    func alerts(_ events: [ActivityEvent]) -> [Alert] {
        events.compactMap { if case .alert(_, let alert) = $0 { return alert } else { return nil } }
    }

    @Test func focusCompletesAtZeroWithAlertAndReasonCompleted() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "focus", attributes: ["session-type": .string("Pomodoro")],
                                         state: ["task": .string("Write")], now: t0)
        #expect(registry.activity(id.rawValue)?.attributes["minutes"] == .int(25))
        let live = try registry.render(id: id.rawValue, now: t0, timeZoneOffset: 0)
        #expect(live.title == "Pomodoro · Write" && live.body == "25:00 left · ends at 12:25")
        #expect(live.compactTrailing == "25:00")

        #expect(!registry.tick(now: t0 + 1499, timeZoneOffset: 0).contains { if case .ended = $0 { true } else { false } })
        let events = try #require(Optional(registry.tick(now: t0 + 1500, timeZoneOffset: 0)))
        var history = HistoryEntry(id: id.rawValue, kind: "focus", reason: .completed, startedAt: t0, endedAt: t0 + 1500,
                                   activeSeconds: 1500, attributes: try #require(registry.activity(id.rawValue)).attributes)
        history.title = "Pomodoro · Write"  // the live card's title, for history exports (issue 21)
        history.task = "Write"
        #expect(events == [
            .statusChanged(id, .ended),
            .ended(id, reason: .completed, history: history),
            .alert(id, Alert(title: "Focus session completed!", body: "25m of focus on Write", sound: "complete")),
        ])
        let final = try registry.render(id: id.rawValue, now: t0 + 1600, timeZoneOffset: 0)
        #expect(final.body == "Completed · 25m focused" && final.buttons.isEmpty && final.status == .ended)
    }

    @Test(arguments: [("complete", EndReason.completed), ("cancel", .cancelled)])
    func completeAndCancelAreDifferentEndings(button: String, reason: EndReason) throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "focus", attributes: ["minutes": .int(30)], state: [:], now: t0)
        let events = try registry.invoke(action: button, id: id.rawValue, now: t0 + 600)
        #expect(events.first == .actionInvoked(id, action: button))
        guard case .ended(_, let endedReason, let history)? = events.first(where: { if case .ended = $0 { true } else { false } }) else {
            Issue.record("no ended event in \(events)")
            return
        }
        #expect(endedReason == reason && history.reason == reason && history.activeSeconds == 600)
        #expect(alerts(events).isEmpty)
        #expect(try registry.render(id: id.rawValue, now: t0 + 601, timeZoneOffset: 0).body == "\(reason.label) · 10m focused")
    }

    @Test func pauseResumeAndExtendMoveTheEnd() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "focus", attributes: [:], state: [:], now: t0)
        #expect(try registry.pause(id: id.rawValue, now: t0 + 300) == [.updated(id), .statusChanged(id, .paused)])
        let paused = try registry.render(id: id.rawValue, now: t0 + 1000, timeZoneOffset: 0)
        #expect(paused.body == "Paused · 20:00 left" && paused.compactLeading == "⏸" && paused.status == .paused)
        #expect(registry.nextDeadline(after: t0 + 1000, timeZoneOffset: 0) == nil)
        #expect(registry.tick(now: t0 + 5000, timeZoneOffset: 0).allSatisfy { $0 == .rendered(id) })

        #expect(try registry.resume(id: id.rawValue, now: t0 + 5000) == [.updated(id), .statusChanged(id, .active)])
        #expect(registry.activity(id.rawValue)?.timer?.endTime == t0 + 6200)
        _ = try registry.extend(id: id.rawValue, seconds: 300, now: t0 + 5100)
        #expect(registry.activity(id.rawValue)?.timer?.endTime == t0 + 6500)
        #expect(try registry.render(id: id.rawValue, now: t0 + 5100, timeZoneOffset: 0).body == "23:20 left · ends at 13:48")
        #expect(registry.tick(now: t0 + 6499, timeZoneOffset: 0).allSatisfy { $0 == .rendered(id) })
        let events = registry.tick(now: t0 + 6500, timeZoneOffset: 0)
        guard case .ended(_, .completed, let history)? = events.dropFirst().first else {
            Issue.record("expected a completed end, got \(events)")
            return
        }
        #expect(history.activeSeconds == 1800 && history.endedAt == t0 + 6500)
    }

    @Test func fastingPhaseChangesWithAlertAndHonoursAPastStart() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "fasting", attributes: ["protocol": .string("16:8"), "start-time": .double(t0 - 15 * 3600)],
                                         state: [:], now: t0)
        let fasting = try registry.render(id: id.rawValue, now: t0, timeZoneOffset: 0)
        #expect(fasting.title == "Fasting · 16:8")
        #expect(fasting.body == "15h of 16h · 93% · goal at 13:00", "minutes only: a fast ticks once a minute")
        #expect(fasting.compactPair == "⏳ 15:00" && fasting.minimal == "🍽")
        #expect(fasting.progress == 15.0 / 16.0 && fasting.progressPercent == 93)
        #expect(fasting.buttons.map(\.label) == ["End fast", "Cancel"])

        #expect(alerts(registry.tick(now: t0 + 3599, timeZoneOffset: 0)).isEmpty)
        let atGoal = registry.tick(now: t0 + 3600, timeZoneOffset: 0)
        #expect(atGoal == [.alert(id, Alert(title: "Fasting goal reached",
                                            body: "You fasted 16h. Eating window open until 21:00.", sound: "complete"))])
        let eating = try registry.render(id: id.rawValue, now: t0 + 3660, timeZoneOffset: 0)
        #expect(eating.title == "Eating window · 16:8")
        #expect(eating.body == "Goal of 16h reached · fasted 16:01 · eat until 21:00")
        #expect(eating.compactLeading == "🍽" && eating.progress == 1 && eating.status == .active)

        let later = registry.tick(now: t0 + 20 * 3600, timeZoneOffset: 0)
        #expect(alerts(later).isEmpty && registry.activity(id.rawValue)?.isLive == true)
        let events = try registry.invoke(action: "complete", id: id.rawValue, now: t0 + 20 * 3600)
        #expect(events.contains { if case .ended(_, .completed, _) = $0 { true } else { false } })
        #expect(try registry.render(id: id.rawValue, now: t0 + 20 * 3600, timeZoneOffset: 0).title == "Fast Completed")
    }

    @Test func fastingStartedPastItsGoalBeginsInTheEatingWindowWithoutAlert() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "fasting", attributes: ["fasting-hours": .int(16), "start-time": .double(t0 - 17 * 3600)],
                                         state: [:], now: t0)
        #expect(registry.activity(id.rawValue)?.phaseIndex == 1)
        #expect(alerts(registry.tick(now: t0, timeZoneOffset: 0)).isEmpty)
        #expect(try registry.render(id: id.rawValue, now: t0, timeZoneOffset: 0).title == "Eating window")
    }

    @Test func omadIsATwentyThreeHourFast() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "fasting", attributes: ["protocol": .string("OMAD")], state: [:], now: t0)
        let activity = try #require(registry.activity(id.rawValue))
        #expect(activity.attributes["fasting-hours"] == .int(23))
        #expect(activity.phases == [PhaseState(name: "fasting", label: "Fasting", end: 23 * 3600),
                                    PhaseState(name: "eating", label: "Eating window", end: 24 * 3600)])
        #expect(try registry.render(id: id.rawValue, now: t0, timeZoneOffset: 0).body == "0m of 23h · 0% · goal at 11:00")
    }

    @Test func aFocusEndThatPassedWhileTheDaemonWasDownCompletesOnRestore() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "focus", attributes: [:], state: [:], now: t0)
        let stored = try JSONEncoder().encode(registry.snapshot)

        var restored = ActivityRegistry(catalog: shippedCatalog, snapshot: try JSONDecoder().decode(RegistrySnapshot.self, from: stored))
        let events = restored.tick(now: t0 + 3600, timeZoneOffset: 0)
        #expect(events.count == 3 && alerts(events).map(\.title) == ["Focus session completed!"])
        let ended = try #require(restored.activity(id.rawValue))
        #expect(ended.status == .ended && ended.reason == .completed && ended.endedAt == t0 + 1500)
        #expect(ended.dismissAt == t0 + 1500 + 4 * 3600)

        var muchLater = ActivityRegistry(catalog: shippedCatalog, snapshot: try JSONDecoder().decode(RegistrySnapshot.self, from: stored))
        let lateEvents = muchLater.tick(now: t0 + 10 * 3600, timeZoneOffset: 0)
        #expect(lateEvents.suffix(2) == [.statusChanged(id, .dismissed), .dismissed(id)])
        #expect(muchLater.activities.isEmpty)
    }

    @Test func lifetimeCapEndsTheActivity() throws {
        var (registry, id) = try probeRegistry(body: "x", extra: ", \"max-lifetime\": 60")
        #expect(registry.nextDeadline(after: t0, timeZoneOffset: 0) == t0 + 60)
        #expect(registry.tick(now: t0 + 59, timeZoneOffset: 0).allSatisfy { $0 == .rendered(id) })
        let events = registry.tick(now: t0 + 61, timeZoneOffset: 0)
        #expect(events.first == .statusChanged(id, .ended))
        #expect(registry.activity(id.rawValue)?.reason == .ended && registry.activity(id.rawValue)?.endedAt == t0 + 60)
    }

    @Test func genericShowsALiveCountdownWhenGivenATimer() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: ["timer-end": .double(t0 + 600)],
                                         state: ["title": .string("Tea"), "icon": .string("tea")], now: t0)
        let card = try registry.render(id: id.rawValue, now: t0 + 59.5, timeZoneOffset: 0)
        #expect(card.title == "Tea" && card.body == "9:01 left" && card.compactPair == "Tea 9:01")
        #expect(card.iconName == "tea" && card.progress == 59.5 / 600)
        _ = registry.tick(now: t0 + 700, timeZoneOffset: 0)
        let done = try registry.render(id: id.rawValue, now: t0 + 700, timeZoneOffset: 0)
        #expect(done.body == "0:00 left" && done.status == .active && done.progress == 1)
        #expect(registry.nextDeadline(after: t0 + 700, timeZoneOffset: 0) == nil)
    }

    @Test func genericWithoutTimerShowsStateProgress() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:],
                                         state: ["title": .string("Copy"), "body": .string("3 of 7"), "progress": .double(0.456)], now: t0)
        let card = try registry.render(id: id.rawValue, now: t0, timeZoneOffset: 0)
        #expect(card.body == "3 of 7" && card.compactPair == "Copy 45%" && card.minimal == "45%")
        #expect(card.iconName == "dialog-information" && card.buttons == [CardButton(key: "end", label: "End")])
        #expect(registry.nextDeadline(after: t0, timeZoneOffset: 0) == nil)
    }
}
