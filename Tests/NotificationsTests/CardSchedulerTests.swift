import Testing
@testable import Notifications

/// Rate limiting and coalescing with an injected clock.
@Suite(.timeLimit(.minutes(5)))
struct CardSchedulerTests {
    static func card(_ title: String) -> Card { Card(appName: "Test", title: title) }
    static let byTitle: @Sendable (CardScheduler.Pending) -> String = { $0.card.title }

    @Test func firstCardGoesAtOnceThenOnePerInterval() {
        var scheduler = CardScheduler(minimumInterval: 1)
        scheduler.submit(id: "a", card: Self.card("1"), alert: nil)
        #expect(scheduler.takeDue(now: 10, identity: Self.byTitle).map(\.card.title) == ["1"])
        for step in 2...5 {
            scheduler.submit(id: "a", card: Self.card("\(step)"), alert: nil)
        }
        #expect(scheduler.takeDue(now: 10.6, identity: Self.byTitle).isEmpty)
        #expect(scheduler.nextDueTime(identity: Self.byTitle) == 10.99, "a second after the last call, less 1 %")
        #expect(scheduler.takeDue(now: 10.99, identity: Self.byTitle).map(\.card.title) == ["5"])
        #expect(scheduler.nextDueTime(identity: Self.byTitle) == nil)
    }

    /// Card 1 went at 10 without waiting for the server's answer; card 2 came at 11.
    static func card2WaitingForTheAnswerToCard1() -> CardScheduler {
        var scheduler = CardScheduler(minimumInterval: 1)
        scheduler.submit(id: "a", card: card("1"), alert: nil)
        _ = scheduler.takeDue(now: 10, identity: byTitle)
        scheduler.awaitAnswer("a")
        scheduler.submit(id: "a", card: card("2"), alert: nil)
        return scheduler
    }

    @Test func aCardNeverGoesSoonerThanASecondAfterTheLast() {
        var scheduler = CardScheduler(minimumInterval: 1)
        scheduler.submit(id: "a", card: Self.card("tick 1"), alert: nil)
        _ = scheduler.takeDue(now: 10, identity: Self.byTitle)
        // The next tick's card comes 0.97 s later (the thread woke late last time): it waits
        // for its slot, a second after the last call less the 1 % tolerance (DESIGN.md's rate).
        scheduler.submit(id: "a", card: Self.card("tick 2"), alert: nil)
        #expect(scheduler.takeDue(now: 10.97, identity: Self.byTitle).isEmpty)
        #expect(scheduler.takeDue(now: 10.9899, identity: Self.byTitle).isEmpty)
        #expect(scheduler.nextDueTime(identity: Self.byTitle) == 10.99)
        #expect(scheduler.takeDue(now: 10.99, identity: Self.byTitle).map(\.card.title) == ["tick 2"])
    }

    @Test func aServerThatNeverAnswersHoldsTheNextCardNoLongerThanACallWouldWait() {
        var scheduler = Self.card2WaitingForTheAnswerToCard1()
        #expect(scheduler.takeDue(now: 34.9, identity: Self.byTitle).isEmpty, "still within the answer's timeout")
        #expect(scheduler.nextDueTime(identity: Self.byTitle) == 10 + CardScheduler.answerTimeout)
        #expect(scheduler.takeDue(now: 35, identity: Self.byTitle).map(\.card.title) == ["2"])
    }

    @Test func aCardSentWithoutWaitingHoldsTheNextUntilTheServerAnswers() {
        var scheduler = Self.card2WaitingForTheAnswerToCard1()
        #expect(scheduler.takeDue(now: 11, identity: Self.byTitle).isEmpty, "the server has not answered card 1")
        #expect(scheduler.nextDueTime(identity: Self.byTitle) == 10 + CardScheduler.answerTimeout, "no timer before the timeout: the answer wakes the thread")
        scheduler.answered("a")  // the server was slow: it answered card 1 at 10.4
        #expect(scheduler.nextDueTime(identity: Self.byTitle) == 10.99, "the slot counts from when card 1 went, not from the answer")
        #expect(scheduler.takeDue(now: 10.98, identity: Self.byTitle).isEmpty)
        #expect(scheduler.takeDue(now: 11, identity: Self.byTitle).map(\.card.title) == ["2"])
    }

    @Test func anAnswerLaterThanTheSlotMovesTheNextSlot() {
        var scheduler = Self.card2WaitingForTheAnswerToCard1()
        scheduler.answered("a")  // a server slower than a card a second answers at 11.5
        #expect(scheduler.takeDue(now: 11.5, identity: Self.byTitle).map(\.card.title) == ["2"])
        scheduler.submit(id: "a", card: Self.card("3"), alert: nil)
        #expect(scheduler.nextDueTime(identity: Self.byTitle) == 12.49, "a second (less 1 %) after card 2 went, at the answer")
    }

    /// A card replaced every second keeps in step with its ticks however late the thread wakes
    /// and however long the server takes to answer, and two cards are never within a second of
    /// each other's slot.
    @Test func cardsOfATickingActivityStayOnTheirTicks() {
        var scheduler = CardScheduler(minimumInterval: 1)
        var calls: [Double] = []
        for tick in 0..<600 {
            let handed = 100 + Double(tick) + 0.0003  // the card reaches the card thread 0.3 ms after its tick
            scheduler.submit(id: "a", card: Self.card("\(tick)"), alert: nil)
            var now = handed
            var due = scheduler.takeDue(now: now, identity: Self.byTitle)
            if due.isEmpty, let next = scheduler.nextDueTime(identity: Self.byTitle) {
                now = next + 0.002  // the card thread's timer wakes 2 ms late
                due = scheduler.takeDue(now: now, identity: Self.byTitle)
            }
            #expect(due.map(\.card.title) == ["\(tick)"])
            let call = now + 0.0002  // the request is built
            scheduler.markSent("a", at: call)
            calls.append(call)
            scheduler.awaitAnswer("a")
            scheduler.answered("a")  // the server answers in 10 ms
        }
        #expect((calls.last ?? 0) - 699 < 0.003, "the last card went at its tick, not behind it: \(calls.last ?? 0)")
        #expect(zip(calls, calls.dropFirst()).allSatisfy { $1 - $0 >= 0.99 }, "calls a second apart, less 1 % at most")
    }

    /// The hand-off from the tick to the card thread takes a little longer at some ticks than
    /// at others: each card still goes as it comes, with no timer of its own (the schedule used
    /// to ratchet to the slowest hand-off seen, so nearly every card waited for it), and after
    /// a 50 ms hiccup the cards catch up within a few ticks, never closer than 0.99 s.
    @Test func aJitteringHandOffNeitherHoldsCardsBackNorDrifts() {
        var scheduler = CardScheduler(minimumInterval: 1)
        var calls: [Double] = [], waited: [Int] = []
        let latencies = [0.0006, 0.0009, 0.0004, 0.0012, 0.0005, 0.0008]
        for tick in 0..<600 {
            let latency = tick == 300 ? 0.05 : latencies[tick % latencies.count]
            let handed = 100 + Double(tick) + latency
            scheduler.submit(id: "a", card: Self.card("\(tick)"), alert: nil)
            var now = handed
            var due = scheduler.takeDue(now: now, identity: Self.byTitle)
            if due.isEmpty, let next = scheduler.nextDueTime(identity: Self.byTitle) {
                waited.append(tick)
                now = next
                due = scheduler.takeDue(now: now, identity: Self.byTitle)
            }
            #expect(due.map(\.card.title) == ["\(tick)"])
            scheduler.markSent("a", at: now)
            calls.append(now)
        }
        #expect(waited.allSatisfy { (301...305).contains($0) }, "only the cards after the hiccup wait: \(waited)")
        #expect(zip(calls, calls.dropFirst()).allSatisfy { $1 - $0 >= 0.99 - 1e-9 }, "calls at least 0.99 s apart")
        #expect((calls.last ?? 0) - 699 < 0.0015, "the last card went as it came: \(calls.last ?? 0)")
    }

    @Test func anIdenticalCardKeepsTheWholeIdenticalInterval() {
        var scheduler = CardScheduler(minimumInterval: 1, minimumIdenticalInterval: 1)
        scheduler.submit(id: "a", card: Self.card("same"), alert: nil)
        _ = scheduler.takeDue(now: 10, identity: Self.byTitle)
        scheduler.submit(id: "a", card: Self.card("same"), alert: nil)
        #expect(scheduler.takeDue(now: 10.97, identity: Self.byTitle).isEmpty)
        #expect(scheduler.takeDue(now: 11, identity: Self.byTitle).map(\.card.title) == ["same"])
    }

    @Test func theNextSlotCountsFromWhenTheCardReachedTheServer() {
        var scheduler = CardScheduler(minimumInterval: 1)
        scheduler.submit(id: "a", card: Self.card("1"), alert: nil)
        _ = scheduler.takeDue(now: 10, identity: Self.byTitle)
        scheduler.markSent("a", at: 10.3)  // the round's calls went out one after another
        scheduler.submit(id: "a", card: Self.card("2"), alert: nil)
        #expect(scheduler.takeDue(now: 11, identity: Self.byTitle).isEmpty)
        #expect(abs((scheduler.nextDueTime(identity: Self.byTitle) ?? 0) - 11.29) < 1e-9)
        scheduler.markSent("a", at: 5)  // an earlier time never moves the slot back
        #expect(abs((scheduler.nextDueTime(identity: Self.byTitle) ?? 0) - 11.29) < 1e-9)
    }

    @Test func activitiesHaveSeparateSlots() {
        var scheduler = CardScheduler(minimumInterval: 1)
        scheduler.submit(id: "a", card: Self.card("a1"), alert: nil)
        _ = scheduler.takeDue(now: 0, identity: Self.byTitle)
        scheduler.submit(id: "a", card: Self.card("a2"), alert: nil)
        scheduler.submit(id: "b", card: Self.card("b1"), alert: nil)
        #expect(scheduler.takeDue(now: 0.1, identity: Self.byTitle).map(\.id) == ["b"])
        #expect(scheduler.waitingIDs == ["a"])
    }

    @Test func alertIsNeverLostWhenCoalesced() {
        var scheduler = CardScheduler(minimumInterval: 1)
        scheduler.submit(id: "a", card: Self.card("1"), alert: nil)
        _ = scheduler.takeDue(now: 0, identity: Self.byTitle)
        scheduler.submit(id: "a", card: Self.card("done"), alert: CardAlert(soundName: "complete"))
        scheduler.submit(id: "a", card: Self.card("later"), alert: nil)
        let sent = scheduler.takeDue(now: 1, identity: Self.byTitle)
        #expect(sent.map(\.card.title) == ["later"])
        #expect(sent.first?.alert == CardAlert(soundName: "complete"))
    }

    @Test func newerAlertKeepsEarlierSoundWhenItHasNone() {
        var scheduler = CardScheduler(minimumInterval: 1)
        scheduler.submit(id: "a", card: Self.card("1"), alert: CardAlert(soundName: "bell"))
        scheduler.submit(id: "a", card: Self.card("2"), alert: CardAlert())
        #expect(scheduler.waiting("a")?.alert == CardAlert(soundName: "bell"))
    }

    @Test func identicalNotificationWaitsForItsInterval() {
        var scheduler = CardScheduler(minimumInterval: 0.2, minimumIdenticalInterval: 1)
        scheduler.submit(id: "a", card: Self.card("same"), alert: nil)
        _ = scheduler.takeDue(now: 0, identity: Self.byTitle)
        scheduler.submit(id: "b", card: Self.card("same"), alert: nil)
        scheduler.submit(id: "a", card: Self.card("other"), alert: nil)
        #expect(scheduler.takeDue(now: 0.3, identity: Self.byTitle).map(\.id) == ["a"])
        #expect(scheduler.nextDueTime(identity: Self.byTitle) == 1)
        #expect(scheduler.takeDue(now: 0.9, identity: Self.byTitle).isEmpty)
        #expect(scheduler.takeDue(now: 1.0, identity: Self.byTitle).map(\.id) == ["b"])
    }

    @Test func forgetAndDiscard() {
        var scheduler = CardScheduler(minimumInterval: 1)
        scheduler.submit(id: "a", card: Self.card("1"), alert: nil)
        _ = scheduler.takeDue(now: 0, identity: Self.byTitle)
        scheduler.submit(id: "a", card: Self.card("2"), alert: nil)
        scheduler.forget(id: "a")
        #expect(scheduler.waitingIDs.isEmpty)
        scheduler.submit(id: "a", card: Self.card("3"), alert: nil)
        #expect(scheduler.takeDue(now: 0.6, identity: Self.byTitle).map(\.card.title) == ["3"])

        scheduler.submit(id: "a", card: Self.card("4"), alert: nil)
        #expect(scheduler.discardRoutine(id: "a") == false)
        #expect(scheduler.waiting("a") == nil)
        scheduler.submit(id: "a", card: Self.card("5"), alert: CardAlert())
        #expect(scheduler.discardRoutine(id: "a") == true)
        #expect(scheduler.waiting("a")?.card.title == "5")
        scheduler.discardAll()
        #expect(scheduler.waitingIDs.isEmpty)
    }
}
