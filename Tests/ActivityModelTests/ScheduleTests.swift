import Testing
@testable import ActivityModel

/// The model's side of scheduled starts and updates: what the one timer is armed for, and
/// what a tick at and before the moment does, without any daemon.
@Suite(.timeLimit(.minutes(2))) struct ScheduleTests {
    @Test func aPendingStartIsTheNextDeadlineAndStartsExactlyThen() throws {
        var registry = shippedRegistry()
        let (id, events) = try registry.start(kind: "focus", attributes: [:], state: [:],
                                              options: .init(startAt: t0 + 600), now: t0)
        #expect(events == [.started(id, kind: "focus"), .statusChanged(id, .pending)])
        #expect(registry.nextDeadline(after: t0, timeZoneOffset: 0) == t0 + 600)
        #expect(registry.liveCount == 0 && registry.placesTaken == 1)
        #expect(registry.compactText(now: t0, timeZoneOffset: 0) == "")
        #expect(registry.tick(now: t0 + 599.999, timeZoneOffset: 0).isEmpty, "nothing before its time")
        let started = registry.tick(now: t0 + 600, timeZoneOffset: 0)
        #expect(started.first == .statusChanged(id, .active))
        #expect(started.contains { if case .alert(id, _) = $0 { return true } else { return false } })
        #expect(registry.activity(id.rawValue)?.timer?.endTime == t0 + 600 + 25 * 60)
    }

    @Test func aLateActivationAnchorsTheTimerThenButKeepsAGivenStart() throws {
        var registry = shippedRegistry()
        let (free, _) = try registry.start(kind: "focus", attributes: [:], state: [:], options: .init(startAt: t0 + 600), now: t0)
        let (given, _) = try registry.start(kind: "generic", attributes: ["timer-start": .double(t0 + 600), "timer-end": .double(t0 + 1_200)],
                                            state: ["title": .string("given")], options: .init(startAt: t0 + 600), now: t0)
        _ = registry.tick(now: t0 + 900, timeZoneOffset: 0)
        #expect(registry.activity(free.rawValue)?.timer?.start == t0 + 900, "anchored when it became active")
        #expect(registry.activity(given.rawValue)?.timer?.start == t0 + 600, "an explicit timer start stays")
    }

    @Test func updatesKeepTimeOrderAndTheNextIsTheDeadline() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("0")], now: t0)
        for at in [t0 + 30, t0 + 10, t0 + 20, t0 + 10] {
            _ = try registry.scheduleUpdate(id: id.rawValue, state: ["title": .string("\(Int(at - t0))")], at: at, now: t0)
        }
        #expect(registry.activity(id.rawValue)?.timeline.map(\.at) == [t0 + 10, t0 + 10, t0 + 20, t0 + 30])
        #expect(registry.nextDeadline(after: t0, timeZoneOffset: 0) == t0 + 10)
        _ = registry.tick(now: t0 + 25, timeZoneOffset: 0)
        #expect(registry.activity(id.rawValue)?.state["title"] == .string("20"), "every due update applied, in order")
        #expect(registry.activity(id.rawValue)?.timeline.map(\.at) == [t0 + 30])
    }

    @Test func anUpdateThatNoLongerFitsWhenDueIsDroppedAndKeptForTheLog() throws {
        var registry = shippedRegistry(limits: Limits(maxPayloadBytes: 400))
        let (id, _) = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("t")], now: t0)
        let body = String(repeating: "b", count: 200)
        _ = try registry.scheduleUpdate(id: id.rawValue, state: ["body": .string(body)], at: t0 + 10, now: t0)
        // The state grows after the update was accepted: at its time, title and body together are past the limit.
        _ = try registry.update(id: id.rawValue, state: ["title": .string(String(repeating: "t", count: 200))], now: t0 + 1)
        #expect(registry.takeDroppedScheduledUpdates().isEmpty, "nothing is dropped before it is due")

        let events = registry.tick(now: t0 + 10, timeZoneOffset: 0)
        #expect(events.contains(.updated(id)))
        #expect(registry.activity(id.rawValue)?.state["body"] == nil, "not applied")
        #expect(registry.activity(id.rawValue)?.timeline.isEmpty == true, "and gone from the timeline")
        let dropped = registry.takeDroppedScheduledUpdates()
        #expect(dropped.map(\.id) == [id])
        #expect(dropped.first?.at == t0 + 10)
        #expect(dropped.first?.error.name == "PayloadTooLarge", "\(String(describing: dropped.first?.error))")
        #expect(registry.takeDroppedScheduledUpdates().isEmpty, "taken once")
    }
}

/// Pending activities are not ended ones: the cap on ended activities waiting for their
/// dismissal never removes one.
@Suite(.timeLimit(.minutes(2))) struct PendingIsNotEndedTests {
    @Test func theEndedCapLeavesPendingActivitiesAlone() throws {
        var registry = shippedRegistry(limits: Limits(maxEndedActivities: 0))
        let (pending, _) = try registry.start(kind: "focus", attributes: [:], state: [:], options: .init(startAt: t0 + 600), now: t0)
        let (other, _) = try registry.start(kind: "generic", attributes: [:], state: [:], now: t0)
        let events = try registry.end(id: other.rawValue, now: t0 + 1)
        #expect(events.contains(.dismissed(other)), "the ended one goes at once (cap 0)")
        #expect(!events.contains(.dismissed(pending)))
        #expect(registry.activity(pending.rawValue)?.status == .pending)
    }
}

/// Issue 28, row 8: a pending activity showed its kind's ended templates (`Scheduled · · 0m
/// focused`); it shows the live ones as they will read at its start, and when that is.
@Suite(.timeLimit(.minutes(2))) struct PendingRenderTests {
    @Test func aScheduledFocusSessionShowsWhenItStartsAndItsLengthNotAnEndedCard() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "focus", attributes: ["session-type": .string("Pomodoro")], state: [:],
                                         options: .init(startAt: t0 + 3_600), now: t0)
        let rendered = try registry.render(id: id.rawValue, now: t0, timeZoneOffset: 0)
        #expect(!rendered.body.contains("focused"), "not the ended template: \(rendered.body)")
        #expect(rendered.body == "Starts at 13:00 · 25:00 left · ends at 13:25", "\(rendered.body)")
        #expect(rendered.title == "Pomodoro")
        #expect(rendered.status == .pending)
        #expect(rendered.buttons.isEmpty, "nothing to press before it starts")
    }

    @Test func aStartOnAnotherDaySaysWhichDay() throws {
        var registry = shippedRegistry()
        let (tomorrow, _) = try registry.start(kind: "focus", attributes: [:], state: [:], options: .init(startAt: t0 + 86_400), now: t0)
        let (later, _) = try registry.start(kind: "focus", attributes: [:], state: [:], options: .init(startAt: t0 + 3 * 86_400), now: t0)
        #expect(try registry.render(id: tomorrow.rawValue, now: t0, timeZoneOffset: 0).body.hasPrefix("Starts tomorrow at 12:00 · 25:00 left"))
        let laterBody = try registry.render(id: later.rawValue, now: t0, timeZoneOffset: 0).body
        #expect(laterBody.hasPrefix("Starts in 3 days at 12:00 · "), "\(laterBody)")
    }
}
