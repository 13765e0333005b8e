import DBus
import Foundation
import TestSupport
import Testing
@testable import LiveActivityKit

/// LiveActivityKit against the real daemon on a private bus.
@Suite("LiveActivityKit with the real daemon", .timeLimit(.minutes(5)))
struct ActivityLifecycleTests {
    static func countdownState(_ note: String, steps: [Int] = [1, 2, 3]) -> CountdownAttributes.ContentState {
        .init(detail: .init(note: note, steps: steps), at: Date(timeIntervalSince1970: 1_796_125_594.25))
    }

    @Test("Nested state goes to the daemon as dotted keys and comes back typed, after a fresh lookup")
    func nestedRoundTrip() async throws {
        let world = try KitWorld()
        try ActivityKindFile.install(CountdownAttributes.kindFile, for: CountdownAttributes.self, in: world.dataKindDirectory)
        try await world.run {
            let attributes = CountdownAttributes(seconds: 600, label: "Tea")
            let state = Self.countdownState("steep")
            let activity = try Activity<CountdownAttributes>.request(attributes: attributes,
                                                                     content: ActivityContent(state: state, staleDate: nil))
            #expect(activity.kind == "CountdownAttributes")
            let held = try world.get(activity.id)
            #expect(held["state"]?.vardict?["detail.steps.2"] == .int64(3))
            #expect(held["state"]?.vardict?["at"] == .double(1_796_125_594.25))
            #expect(held["title"]?.string == "Tea")

            var changed = state
            changed.detail.steps = [4, 5, 6]
            await activity.update(ActivityContent(state: changed, staleDate: nil, relevanceScore: 2))
            let found = try #require(Activity<CountdownAttributes>.activities.first { $0.id == activity.id })
            #expect(found !== activity)
            #expect(found.attributes.label == "Tea" && found.attributes.seconds == 600)
            #expect(found.content.state == changed)
            #expect(found.content.relevanceScore == 2)
            #expect(found.activityState == .active)
        }
    }

    @Test("An app's kind file installed while the daemon runs draws the card, and Kinds lists it")
    func kindFileWithoutRestart() async throws {
        let world = try KitWorld()
        #expect(try world.property("Kinds") == .array(elementSignature: "s", ["fasting", "focus", "generic"].map { .string($0) }))
        try ActivityKindFile.install(CountdownAttributes.kindFile, for: CountdownAttributes.self, in: world.dataKindDirectory)
        try await world.run {
            let activity = try Activity<CountdownAttributes>.request(
                attributes: CountdownAttributes(seconds: 300, label: "Designed"),
                content: ActivityContent(state: Self.countdownState("from the kind file"), staleDate: nil))
            #expect(activity.kind == "CountdownAttributes")
            let card = world.waitForCard { $0.summary == "Designed" }
            #expect(card?.body.hasSuffix("left · from the kind file") == true)
            #expect(card?.actions.contains("complete") == true)
        }
        let kinds = try world.property("Kinds")
        #expect(kinds == .array(elementSignature: "s", ["CountdownAttributes", "fasting", "focus", "generic"].map { .string($0) }))
    }

    @Test("An update replaces the daemon's state: a shrunk array leaves no stale elements behind")
    func updateReplacesTheState() async throws {
        let world = try KitWorld()
        try ActivityKindFile.install(CountdownAttributes.kindFile, for: CountdownAttributes.self, in: world.dataKindDirectory)
        try await world.run {
            let state = Self.countdownState("steep")
            let activity = try Activity<CountdownAttributes>.request(attributes: CountdownAttributes(seconds: 600, label: "Tea"),
                                                                     content: ActivityContent(state: state, staleDate: nil))
            #expect(try world.get(activity.id)["state"]?.vardict?["detail.steps.2"] == .int64(3))
            var shorter = state
            shorter.detail.steps = [9]
            try await activity.throwingUpdate(ActivityContent(state: shorter, staleDate: nil))
            let held = try #require(try world.get(activity.id)["state"]?.vardict)
            #expect(held["detail.steps.0"] == .int64(9))
            #expect(held["detail.steps.1"] == nil && held["detail.steps.2"] == nil, "\(held)")
            let found = try #require(Activity<CountdownAttributes>.activities.first { $0.id == activity.id })
            #expect(found.content.state == shorter)
        }
    }

    @Test("A kind file added to a watched directory is read without any Start (inotify); PropertiesChanged announces Kinds")
    func kindDirectoryWatch() throws {
        let world = try KitWorld()
        let loop = try EventLoop()
        let listener = try DBusConnection(address: world.bus.address)
        listener.attach(to: loop)
        try listener.addMatch("type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
                              + "path='\(KitWorld.managerPath)'")
        var announced: DBusValue?
        listener.addMessageHandler { message in
            if message.member == "PropertiesChanged", let changed = try? message.arguments()[1].vardict,
               let kinds = changed["Kinds"] { announced = kinds }
            return false
        }
        let file = world.configKindDirectory.appendingPathComponent("CountdownAttributes.json")
        try CountdownAttributes.kindFile.write(to: file, atomically: true, encoding: .utf8)
        #expect(loop.run(until: { announced != nil }, timeout: 10))
        #expect(announced == .array(elementSignature: "s", ["CountdownAttributes", "fasting", "focus", "generic"].map { .string($0) }))
        #expect(try world.property("Kinds") == announced)
    }

    @Test("Without a kind file the card has the type's title and the state's fields")
    func fallbackCard() async throws {
        let world = try KitWorld()
        try await world.run {
            let activity = try Activity<PizzaDeliveryAttributes>.request(
                attributes: PizzaDeliveryAttributes(orderNumber: "A-17"),
                content: ActivityContent(state: .init(driverName: "Ana", stopsAway: 3, onTheWay: true), staleDate: nil))
            #expect(activity.kind == "generic")
            let card = try #require(world.waitForCard { $0.summary == "Pizza Delivery" })
            #expect(card.body == "Driver name: Ana · On the way: yes · Stops away: 3")
            await activity.update(ActivityContent(state: .init(driverName: "Ana", stopsAway: 1, onTheWay: true), staleDate: nil))
            #expect(world.waitForCard { $0.body == "Driver name: Ana · On the way: yes · Stops away: 1" } != nil)
            let found = Activity<PizzaDeliveryAttributes>.activities
            #expect(found.map(\.id) == [activity.id])
            #expect(found.first?.attributes.orderNumber == "A-17")
            #expect(found.first?.content.state.stopsAway == 1)
            #expect(Activity<CountdownAttributes>.activities.isEmpty)
        }
    }

    @Test("A push type asks the daemon for push; a daemon without push starts the activity without it")
    func pushTypeWithoutPush() async throws {
        let world = try KitWorld()
        try await world.run {
            for pushType in [PushType.token, .channel("news")] {
                let activity = try Activity<PizzaDeliveryAttributes>.request(
                    attributes: PizzaDeliveryAttributes(orderNumber: "P"),
                    content: ActivityContent(state: .init(driverName: "Ana", stopsAway: 1, onTheWay: true), staleDate: nil),
                    pushType: pushType)
                #expect(activity.pushToken == nil)
                #expect(try world.get(activity.id)["status"]?.string == "active")
                var tokens = activity.pushTokenUpdates.makeAsyncIterator()
                #expect(await tokens.next() == nil)
            }
        }
        #expect(PushOptions.bytes(hex: "00ff10") == Data([0, 255, 16]))
        #expect(PushOptions.bytes(hex: "0g") == nil)
    }

    @Test("A timestamped update older than one applied is ignored")
    func timestampedUpdates() async throws {
        let world = try KitWorld()
        try await world.run {
            let activity = try Activity<PizzaDeliveryAttributes>.request(
                attributes: PizzaDeliveryAttributes(orderNumber: "T"),
                content: ActivityContent(state: .init(driverName: "Ana", stopsAway: 5, onTheWay: true), staleDate: nil))
            let now = Date()
            await activity.update(ActivityContent(state: .init(driverName: "Ana", stopsAway: 2, onTheWay: true), staleDate: nil),
                                  timestamp: now)
            await activity.update(ActivityContent(state: .init(driverName: "Ana", stopsAway: 4, onTheWay: true), staleDate: nil),
                                  timestamp: now.addingTimeInterval(-10))
            #expect(try world.get(activity.id)["state"]?.vardict?["stopsAway"] == .int64(2))
            #expect(activity.content.state.stopsAway == 2)
        }
    }

    @Test("A restarted client finds its running activity with typed state (focusflow, two processes)")
    func restoreAfterClientRestart() async throws {
        let world = try KitWorld()
        let started = try world.runProduct("focusflow", ["start", "deep-work", "Write", "docs"])
        #expect(started.status == 0, "\(started.stdout)\(started.stderr)")
        let again = try world.runProduct("focusflow", ["status"])
        #expect(again.stdout.hasPrefix("Running: Deep Work · Write docs: 45:00 left") || again.stdout.hasPrefix("Running: Deep Work · Write docs: 44:5"),
                "\(again.stdout)")
        try await world.run {
            let found = try #require(Activity<FocusSessionAttributes>.activities.first)
            #expect(found.kind == "FocusSessionAttributes")
            #expect(found.attributes.sessionType == .deepWork && found.attributes.minutes == 45)
            #expect(found.content.state.task == "Write docs")
            #expect(found.content.state.plannedDuration == 2700)
            #expect(started.stdout.contains(String(found.content.state.sessionID.uuidString.prefix(8))))
        }
        let completed = try world.runProduct("focusflow", ["complete"])
        #expect(completed.stdout == "Session completed.\n")
        let stats = try world.runProduct("focusflow", ["status"])
        #expect(stats.stdout.contains("streak: 1 day"), "\(stats.stdout)")
    }

    @Test("The sequences deliver the daemon's own changes: a timer that completes")
    func timerCompletes() async throws {
        let world = try KitWorld()
        try ActivityKindFile.install(CountdownAttributes.kindFile, for: CountdownAttributes.self, in: world.dataKindDirectory)
        try await world.run {
            let activity = try Activity<CountdownAttributes>.request(
                attributes: CountdownAttributes(seconds: 5, label: "Short"),
                content: ActivityContent(state: Self.countdownState("soon"), staleDate: nil))
            let states = Waiter(activity.activityStateUpdates)
            let contents = Waiter(activity.contentUpdates)
            #expect(await states.next(timeout: 20) == .ended)
            #expect(await contents.next(timeout: 20)?.state == Self.countdownState("soon"))
            #expect(activity.activityState == .ended)
            #expect(try world.get(activity.id)["reason"]?.string == "completed")
        }
    }

    @Test("The sequences deliver a button pressed on the card and another program's update")
    func buttonPressed() async throws {
        let world = try KitWorld()
        try ActivityKindFile.install(CountdownAttributes.kindFile, for: CountdownAttributes.self, in: world.dataKindDirectory)
        try await world.run {
            let activity = try Activity<CountdownAttributes>.request(
                attributes: CountdownAttributes(seconds: 600, label: "Button"),
                content: ActivityContent(state: Self.countdownState("press me"), staleDate: nil))
            let contents = Waiter(activity.contentUpdates)
            _ = try world.call("Update", [.string(activity.id), .vardict(["detail.note": .string("from the CLI")]), .vardict([:])])
            #expect(await contents.next()?.state.detail.note == "from the CLI")
            #expect(activity.content.state.detail.note == "from the CLI")

            let card = try #require(world.waitForCard { $0.summary == "Button" })
            let states = Waiter(activity.activityStateUpdates)
            world.cards.press("complete", on: card.id)
            #expect(await states.next() == .ended)
            #expect(try world.get(activity.id)["reason"]?.string == "completed")
        }
    }
}

/// iOS 26's scheduled start through LiveActivityKit and the real daemon. The exact moment is
/// proven in-process with a manual clock (ScheduledStartTests); here the kit's part: `.pending`
/// at request, then `.active` delivered by `activityStateUpdates` when the daemon starts it.
@Suite("LiveActivityKit scheduled start", .timeLimit(.minutes(5)))
struct ScheduledStartKitTests {
    @Test("request(…start:) is pending with no card, then becomes active by itself")
    func pendingThenActive() async throws {
        let world = try KitWorld()
        try ActivityKindFile.install(CountdownAttributes.kindFile, for: CountdownAttributes.self, in: world.dataKindDirectory)
        try await world.run {
            let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 2).rounded(.up))
            let activity = try Activity<CountdownAttributes>.request(
                attributes: CountdownAttributes(seconds: 600, label: "Later"),
                content: ActivityContent(state: ActivityLifecycleTests.countdownState("soon"), staleDate: nil),
                pushType: nil, start: start)
            let states = Waiter(activity.activityStateUpdates)
            #expect(activity.activityState == .pending)
            #expect(try world.get(activity.id)["status"]?.string == "pending")
            #expect(try world.get(activity.id)["started-at"]?.integer == Int64(start.timeIntervalSince1970))
            #expect(world.cards.all.allSatisfy { $0.summary != "Later" }, "no card while pending")
            let next = await states.next(timeout: 20) { $0 != .pending }  // the Start's own StatusChanged(pending) may come first
            #expect(next == .active)
            #expect(activity.activityState == .active)
            #expect(Date() >= start, "not before its start")
            let card = world.waitForCard { $0.summary.contains("Later") || $0.body.contains("Later") }
            #expect(card != nil, "the card appears at the start: \(world.cards.all.map { ($0.summary, $0.body) })")
        }
    }

    @Test("A start more than a year ahead is refused as invalid content")
    func tooFarAhead() async throws {
        let world = try KitWorld()
        try ActivityKindFile.install(CountdownAttributes.kindFile, for: CountdownAttributes.self, in: world.dataKindDirectory)
        await world.run {
            #expect(throws: ActivityAuthorizationError.self) {
                _ = try Activity<CountdownAttributes>.request(
                    attributes: CountdownAttributes(seconds: 600, label: "Far"),
                    content: ActivityContent(state: ActivityLifecycleTests.countdownState("far"), staleDate: nil),
                    start: Date().addingTimeInterval(400 * 86_400))
            }
            #expect(Activity<CountdownAttributes>.activities.isEmpty)
        }
    }
}
