import Foundation
import Testing
import Notifications
import TestSupport

/// The presenter against a real dunst on a private bus. Serialized: libnotify and the bus
/// address are per process.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct CardPresenterDunstTests {
    static func card(_ title: String, body: String = "body", progress: Double? = nil) -> Card {
        Card(appName: "Focus", title: title, body: body, progress: progress, category: "x-liveactivities")
    }

    @Test func updatesReplaceTheCardInPlaceAndCloseRemovesIt() throws {
        let bus = try PrivateBus()
        let dunst = try Dunst(bus: bus)
        let events = PresenterEvents()
        let presenter = startPresenter(on: bus, events: events)
        defer { presenter.stop(); dunst.stop(); bus.stop() }

        presenter.show(id: "focus", card: Self.card("Focus 0"))
        #expect(waitUntil { (try? dunst.displayedCount()) == 1 })
        #expect(presenter.serverInfo?.name == "dunst")
        #expect(events.serverChanges.first??.name == "dunst")
        for step in 1...5 {
            presenter.show(id: "focus", card: Self.card("Focus \(step)", body: "step <\(step)> & more", progress: 0.5))
        }
        #expect(settled(presenter), "the coalesced update went out")
        #expect(try dunst.displayedCount() == 1)

        presenter.close(id: "focus")
        #expect(waitUntil { (try? dunst.displayedCount()) == 0 })
        let closed = try dunst.history().first
        #expect(closed?.summary == "Focus 5")
        #expect(closed?.body == "step <5> & more")
        #expect(settled(presenter))
        #expect(events.closedByUser.isEmpty)
    }

    @Test func userClosedCardStaysClosedUntilTheNextAlert() throws {
        let bus = try PrivateBus()
        let dunst = try Dunst(bus: bus)
        let events = PresenterEvents()
        let presenter = startPresenter(on: bus, events: events, minimumInterval: 0.2)
        defer { presenter.stop(); dunst.stop(); bus.stop() }

        presenter.show(id: "fast", card: Self.card("Fasting 1"))
        #expect(waitUntil { (try? dunst.displayedCount()) == 1 })
        let dismissed = try dunst.dismissTopmost()
        #expect(dismissed?.summary == "Fasting 1")
        #expect(waitUntil { events.closedByUser == ["fast"] })

        presenter.show(id: "fast", card: Self.card("Fasting 2"))
        presenter.show(id: "fast", card: Self.card("Fasting 3"))
        #expect(settled(presenter), "both routine updates were handled (and dropped)")
        #expect(try dunst.displayedCount() == 0)

        presenter.show(id: "fast", card: Self.card("Eating window"), alert: CardAlert(soundName: "complete"))
        #expect(waitUntil { (try? dunst.displayedCount()) == 1 })
        let shown = try dunst.dismissTopmost()
        #expect(shown?.summary == "Eating window")
        #expect(shown?.id != dismissed?.id)
    }

    @Test func aStoppedServerNeverBlocksShowAndGetsTheLatestCardAfterwards() throws {
        let bus = try PrivateBus()
        let dunst = try Dunst(bus: bus)
        let events = PresenterEvents()
        let presenter = startPresenter(on: bus, events: events)
        defer { dunst.process.send(SIGCONT); presenter.stop(); dunst.stop(); bus.stop() }

        presenter.show(id: "focus", card: Self.card("Focus start"))
        #expect(waitUntil { (try? dunst.displayedCount()) == 1 })

        dunst.process.send(SIGSTOP)
        let started = ContinuousClock.now
        for step in 1...50 {
            presenter.show(id: "focus", card: Self.card("Focus \(step)"))
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .milliseconds(100), "50 show() calls took \(elapsed)")
        // Not an absence proof: time for the presenter to block on the stopped server with a
        // card in hand; what follows holds either way (the latest card goes out once it wakes).
        usleep(300_000)
        dunst.process.send(SIGCONT)

        #expect(settled(presenter), "the latest card went out once the server woke")
        #expect(try dunst.displayedCount() == 1)
        #expect(try dunst.dismissTopmost()?.summary == "Focus 50")
    }

    @Test func aRestartedServerGetsEveryLiveCardAgain() throws {
        let bus = try PrivateBus()
        let first = try Dunst(bus: bus)
        let events = PresenterEvents()
        let presenter = startPresenter(on: bus, events: events)
        defer { presenter.stop(); first.stop(); bus.stop() }

        presenter.show(id: "focus", card: Self.card("Focus"))
        presenter.show(id: "fast", card: Self.card("Fasting"))
        #expect(waitUntil { (try? first.displayedCount()) == 2 })
        #expect(events.serverChanges.compactMap { $0?.name } == ["dunst"])

        first.stop()
        #expect(waitUntil { events.serverChanges.count == 2 })
        #expect(events.serverChanges.last == .some(nil))
        #expect(presenter.serverInfo == nil)

        let second = try Dunst(bus: bus)
        defer { second.stop() }
        #expect(waitUntil { (try? second.displayedCount()) == 2 })
        #expect(events.serverChanges.count == 3)
        #expect(events.serverChanges.last??.name == "dunst")
        #expect(presenter.serverInfo?.name == "dunst")

        presenter.show(id: "focus", card: Self.card("Focus later"))
        #expect(settled(presenter))
        #expect(try second.displayedCount() == 2)
    }

    @Test func cardsWaitForAServerThatIsAbsentAtStart() throws {
        let bus = try PrivateBus()
        let events = PresenterEvents()
        let presenter = startPresenter(on: bus, events: events)
        defer { presenter.stop(); bus.stop() }

        presenter.show(id: "focus", card: Self.card("Waiting"))
        #expect(waitUntil { events.serverChanges.count == 1 })
        #expect(events.serverChanges.first == .some(nil))
        #expect(presenter.serverInfo == nil)

        let dunst = try Dunst(bus: bus)
        defer { dunst.stop() }
        #expect(waitUntil { (try? dunst.displayedCount()) == 1 })
        #expect(events.serverChanges.last??.name == "dunst")
        #expect(presenter.profile.sendsValueHint)
        #expect(try dunst.dismissTopmost()?.summary == "Waiting")
    }

    @Test func theDefaultButtonReportsItsKey() throws {
        let bus = try PrivateBus()
        let dunst = try Dunst(bus: bus)
        let events = PresenterEvents()
        let presenter = startPresenter(on: bus, events: events)
        defer { presenter.stop(); dunst.stop(); bus.stop() }

        var card = Self.card("Focus")
        card.buttons = [CardButton(key: "default", label: "Open")]
        presenter.show(id: "focus", card: card)
        #expect(waitUntil { (try? dunst.displayedCount()) == 1 })
        _ = try dunst.control(["action", "0"])
        #expect(waitUntil { events.actionKeys == ["focus:default"] })
    }

    @Test func hideAllClosesCardsAndShowAllBringsThemBack() throws {
        let bus = try PrivateBus()
        let dunst = try Dunst(bus: bus)
        let events = PresenterEvents()
        let presenter = startPresenter(on: bus, events: events, minimumInterval: 0.2)
        defer { presenter.stop(); dunst.stop(); bus.stop() }

        presenter.show(id: "a", card: Self.card("A"))
        presenter.show(id: "b", card: Self.card("B"))
        #expect(waitUntil { (try? dunst.displayedCount()) == 2 })
        presenter.hideAll()
        #expect(waitUntil { (try? dunst.displayedCount()) == 0 })
        presenter.show(id: "a", card: Self.card("A2"))
        #expect(settled(presenter), "the update was handled while hidden")
        #expect(try dunst.displayedCount() == 0)
        presenter.showAll()
        #expect(waitUntil { (try? dunst.displayedCount()) == 2 })
        #expect(events.closedByUser.isEmpty)
    }

    @Test func onTheWireUpdatesAreCoalescedReplacedAndTyped() throws {
        let bus = try PrivateBus()
        let dunst = try Dunst(bus: bus)
        let events = PresenterEvents()
        let monitor = try NotifyCallMonitor(bus: bus)
        let presenter = startPresenter(on: bus, events: events)
        defer { presenter.stop(); dunst.stop(); bus.stop() }

        presenter.show(id: "focus", card: Self.card("Focus 0", progress: 0.1))
        #expect(waitUntil { (try? dunst.displayedCount()) == 1 })
        for step in 1...5 {
            presenter.show(id: "focus", card: Self.card("Focus \(step)", progress: Double(step) / 10))
        }
        #expect(settled(presenter), "the five updates went out as one")
        presenter.show(id: "focus", card: Self.card("Focus done", progress: 1), alert: CardAlert(soundName: "complete"))
        #expect(settled(presenter))
        let calls = monitor.stop()

        #expect(calls.map(\.summary) == ["Focus 0", "Focus 5", "Focus done"])
        #expect(calls.first?.replacesID == 0)
        let shownID = calls.count > 1 ? calls[1].replacesID : 0
        #expect(shownID != 0)
        #expect(calls.dropFirst().allSatisfy { $0.replacesID == shownID })
        let routine = calls.count > 1 ? calls[1] : nil
        #expect(routine?.hint("value") == "int32 50")
        #expect(routine?.hint("urgency") == "byte 1")
        #expect(routine?.hint("resident") == "boolean true")
        #expect(routine?.hint("suppress-sound") == "boolean true")
        #expect(routine?.hint("category") == "string \"x-liveactivities\"")
        #expect(routine?.hint("sound-name") == nil)
        let alert = calls.last
        #expect(alert?.hint("sound-name") == "string \"complete\"")
        #expect(alert?.hint("suppress-sound") == nil)
        #expect(alert?.text.contains("int32 0\n") == true)
    }
}

extension CardPresenterDunstTests {
    @Test func aRoutineReplaceSendsWhatLibnotifySends() throws {
        let bus = try PrivateBus()
        let dunst = try Dunst(bus: bus)
        let events = PresenterEvents()
        let monitor = try NotifyCallMonitor(bus: bus)
        let presenter = startPresenter(on: bus, events: events, minimumInterval: 0.05)
        defer { presenter.stop(); dunst.stop(); bus.stop() }
        let card = Card(appName: "Focus", title: "Pomodoro", body: "24:59 left & <on>", progress: 0.4,
                        buttons: [CardButton(key: "complete", label: "Complete"), CardButton(key: "cancel", label: "Cancel")],
                        category: "x-liveactivities", desktopEntry: "liveactivities")

        presenter.show(id: "focus", card: card)  // a first show: libnotify's notify_notification_show
        #expect(settled(presenter))
        presenter.show(id: "focus", card: card)  // a routine replace: sent without blocking
        #expect(settled(presenter), "the server answered the replace")
        let calls = monitor.stop()

        #expect(calls.count == 2)
        #expect(calls.first?.replacesID == 0)
        #expect(calls.last?.replacesID != 0)
        #expect(try dunst.displayedCount() == 1, "replaced in place")
        // Every argument and hint (sender-pid included) is what libnotify sent, but the id.
        #expect(calls.last?.hint("sender-pid") == "int64 \(getpid())")
        #expect(calls.first.map(Self.argumentLines) == calls.last.map(Self.argumentLines))
    }

    /// The printed arguments of a call, without its header (serial) and replaces_id, in a
    /// fixed order (hints are a dictionary, sent in whatever order the sender keeps them).
    static func argumentLines(_ call: NotifyCallMonitor.Call) -> [String] {
        let lines = call.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        return lines.dropFirst().filter { !$0.hasPrefix("uint32 ") && !$0.isEmpty }.sorted()
    }
}

/// Waits until the presenter has done everything asked of it so far (`whenSettled`): the
/// barrier that replaces "sleep, then look".
func settled(_ presenter: CardPresenter, timeout: Double = 10) -> Bool {
    let done = DispatchSemaphore(value: 0)
    presenter.whenSettled { done.signal() }
    return done.wait(timeout: .now() + timeout) == .success
}
