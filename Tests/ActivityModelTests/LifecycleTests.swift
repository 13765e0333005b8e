import Testing
@testable import ActivityModel

/// Start, Update, End, ordering, stale-at and dismissal as a client sees them.
@Suite(.timeLimit(.minutes(2))) struct LifecycleTests {
    @Test func startReportsAndStoresTheActivity() throws {
        var registry = shippedRegistry()
        let (id, events) = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("Build")],
                                              options: .init(relevance: 2, appName: "make"), now: t0)
        #expect(events == [.started(id, kind: "generic")])
        let activity = try #require(registry.activity(id.rawValue))
        #expect(activity.status == .active)
        #expect(activity.startedAt == t0 && activity.updatedAt == t0)
        #expect(activity.relevance == 2 && activity.appName == "make")
        #expect(id.rawValue.count == 8)
        #expect(registry.liveCount == 1)
    }

    @Test func updateMergesStateKeys() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:],
                                         state: ["title": .string("Upload"), "body": .string("a.txt")], now: t0)
        #expect(try registry.update(id: id.rawValue, state: ["progress": .double(0.5)], now: t0 + 5) == [.updated(id)])
        _ = try registry.update(id: id.rawValue, state: ["title": .string("Uploading")], now: t0 + 6)
        let activity = try #require(registry.activity(id.rawValue))
        #expect(activity.state == ["title": .string("Uploading"), "body": .string("a.txt"), "progress": .double(0.5)])
        #expect(activity.updatedAt == t0 + 6)
        let card = try registry.render(id: id.rawValue, now: t0 + 6, timeZoneOffset: 0)
        #expect(card.title == "Uploading" && card.body == "a.txt" && card.progress == 0.5)
    }

    @Test func replaceStateDropsKeysTheUpdateOrEndDoesNotCarry() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:],
                                         state: ["title": .string("Upload"), "body": .string("a.txt"), "progress": .double(0.5)],
                                         now: t0)
        _ = try registry.update(id: id.rawValue, state: ["title": .string("Uploading")],
                                options: UpdateOptions(replaceState: true), now: t0 + 1)
        #expect(registry.activity(id.rawValue)?.state == ["title": .string("Uploading")])
        #expect(throws: ActivityError.self, "a replacing state is validated like a Start's") {
            try registry.update(id: id.rawValue, state: ["progress": .string("half")], options: UpdateOptions(replaceState: true),
                                now: t0 + 2)
        }
        #expect(registry.activity(id.rawValue)?.state == ["title": .string("Uploading")], "a refused replace changes nothing")
        _ = try registry.end(id: id.rawValue, state: ["body": .string("done")], options: EndOptions(replaceState: true), now: t0 + 3)
        #expect(registry.activity(id.rawValue)?.state == ["body": .string("done")])
    }

    @Test func updateAlertOptionsProduceAnAlert() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:], state: [:], now: t0)
        let events = try registry.update(id: id.rawValue, state: [:],
                                         options: UpdateOptions(alertTitle: "Done", alertBody: "All files", alertSound: "complete"),
                                         now: t0 + 1)
        #expect(events == [.updated(id), .alert(id, Alert(title: "Done", body: "All files", sound: "complete"))])
    }

    @Test func orderingIsByRelevanceThenMostRecentStart() throws {
        var registry = shippedRegistry()
        let (a, _) = try registry.start(kind: "generic", attributes: [:], state: [:], now: t0)
        let (b, _) = try registry.start(kind: "generic", attributes: [:], state: [:], now: t0 + 1)
        let (c, _) = try registry.start(kind: "generic", attributes: [:], state: [:], options: .init(relevance: 5), now: t0 - 100)
        #expect(registry.activities.map(\.id) == [c, b, a])
        _ = try registry.update(id: a.rawValue, state: [:], options: UpdateOptions(relevance: 10), now: t0 + 2)
        #expect(registry.activities.map(\.id) == [a, c, b])
    }

    @Test func staleAtMakesTheActivityStaleAndUpdateRevivesIt() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:], state: ["body": .string("Syncing")],
                                         options: .init(staleAt: t0 + 60), now: t0)
        #expect(registry.tick(now: t0 + 59, timeZoneOffset: 0).contains(.statusChanged(id, .stale)) == false)
        #expect(registry.tick(now: t0 + 60, timeZoneOffset: 0) == [.statusChanged(id, .stale)])
        let card = try registry.render(id: id.rawValue, now: t0 + 60, timeZoneOffset: 0)
        #expect(card.status == .stale && card.body == "Syncing · May be out of date")
        #expect(registry.live.count == 1)

        let events = try registry.update(id: id.rawValue, state: ["body": .string("Synced")], now: t0 + 70)
        #expect(events == [.updated(id), .statusChanged(id, .active)])
        #expect(registry.activity(id.rawValue)?.staleAt == nil)

        let stillStale = try registry.update(id: id.rawValue, state: [:], options: UpdateOptions(staleAt: t0 + 10), now: t0 + 80)
        #expect(stillStale == [.updated(id), .statusChanged(id, .stale)])
    }

    @Test func startWithPastStaleAtIsStaleAtOnce() throws {
        var registry = shippedRegistry()
        let (id, events) = try registry.start(kind: "generic", attributes: [:], state: [:], options: .init(staleAt: t0 - 1), now: t0)
        #expect(events == [.started(id, kind: "generic"), .statusChanged(id, .stale)])
    }

    @Test func defaultDismissalKeepsTheFinalCardFourHours() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("Job")], now: t0)
        let events = try registry.end(id: id.rawValue, state: ["body": .string("finished")], now: t0 + 10)
        var entry = HistoryEntry(id: id.rawValue, kind: "generic", reason: .ended, startedAt: t0, endedAt: t0 + 10, activeSeconds: 10)
        entry.title = "Job"
        #expect(events == [.statusChanged(id, .ended), .ended(id, reason: .ended, history: entry)])
        let ended = try #require(registry.activity(id.rawValue))
        #expect(ended.status == .ended && ended.endedAt == t0 + 10 && ended.dismissAt == t0 + 10 + 4 * 3600)
        #expect(ended.state["body"] == .string("finished"))
        let card = try registry.render(id: id.rawValue, now: t0 + 20, timeZoneOffset: 0)
        #expect(card.body == "finished · Ended" && card.buttons.isEmpty)
        #expect(registry.live.isEmpty && registry.activities.count == 1)

        #expect(registry.tick(now: t0 + 10 + 4 * 3600 - 1, timeZoneOffset: 0).isEmpty)
        #expect(registry.tick(now: t0 + 10 + 4 * 3600, timeZoneOffset: 0) == [.statusChanged(id, .dismissed), .dismissed(id)])
        #expect(registry.activities.isEmpty)
    }

    @Test func immediateDismissalRemovesTheActivityNow() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:], state: [:], options: .init(id: "job"), now: t0)
        let events = try registry.end(id: "job", options: EndOptions(reason: .completed, dismissal: "immediate"), now: t0 + 5)
        // The order ActivityEvent documents: statusChanged(ended), ended, then the dismissal.
        #expect(events.count == 4)
        #expect(events.first == .statusChanged(id, .ended))
        if case .ended(id, .completed, _)? = events.dropFirst().first {} else { Issue.record("second: ended, got \(events)") }
        #expect(events.suffix(2) == [.statusChanged(id, .dismissed), .dismissed(id)])
        #expect(registry.activity("job") == nil)
        #expect(thrownError { try registry.start(kind: "generic", attributes: [:], state: [:], options: .init(id: "job"), now: t0 + 6) } == nil)
    }

    @Test(arguments: [
        (t0 + 600, t0 + 600),               // then
        (t0 + 10 * 3600, t0 + 4 * 3600),    // clamped to four hours after the end
    ])
    func dismissAtClosesTheCardThen(requested: UnixTime, expected: UnixTime) throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:], state: [:], now: t0)
        _ = try registry.end(id: id.rawValue, options: EndOptions(dismissAt: requested), now: t0)
        #expect(registry.activity(id.rawValue)?.dismissAt == expected)
        #expect(registry.nextDeadline(after: t0, timeZoneOffset: 0) == expected)
        #expect(registry.tick(now: expected, timeZoneOffset: 0).last == .dismissed(id))
    }

    @Test func dismissAtInThePastMeansImmediately() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:], state: [:], now: t0)
        let events = try registry.end(id: id.rawValue, options: EndOptions(dismissAt: t0 - 60), now: t0 + 1)
        #expect(events.last == .dismissed(id))
        #expect(registry.activities.isEmpty)
    }

    @Test func toggleStartsThenEnds() throws {
        var registry = shippedRegistry()
        let first = try registry.toggle(kind: "focus", attributes: ["session-type": .string("Deep Work")], state: [:], now: t0)
        #expect(first.started && first.events == [.started(first.id, kind: "focus")])
        let second = try registry.toggle(kind: "focus", attributes: [:], state: [:],
                                         endOptions: EndOptions(reason: .cancelled), now: t0 + 60)
        #expect(!second.started && second.id == first.id)
        #expect(registry.activity(first.id.rawValue)?.reason == .cancelled)
        #expect(registry.live.isEmpty)
        let third = try registry.toggle(kind: "focus", attributes: [:], state: [:], now: t0 + 120)
        #expect(third.started && third.id != first.id)
    }

    @Test func customButtonIsReportedAndBuiltInsAct() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "focus", attributes: [:], state: [:], now: t0)
        let buttons = try registry.render(id: id.rawValue, now: t0, timeZoneOffset: 0).buttons
        #expect(buttons == [CardButton(key: "complete", label: "Complete"), CardButton(key: "cancel", label: "Cancel"),
                            CardButton(key: "extend:300", label: "+5 min")])
        #expect(try registry.invoke(action: "snooze", id: id.rawValue, now: t0 + 1) == [.actionInvoked(id, action: "snooze")])
        let extended = try registry.invoke(action: "extend:300", id: id.rawValue, now: t0 + 2)
        #expect(extended == [.actionInvoked(id, action: "extend:300"), .updated(id)])
        #expect(registry.activity(id.rawValue)?.timer?.duration == 1800)
    }
}
