import DBus
import Foundation
import Testing
@testable import LiveActivityKit

/// What the daemon refuses comes back as ActivityKit's errors, with its message.
@Suite("LiveActivityKit errors from the real daemon", .timeLimit(.minutes(5)))
struct ErrorTests {
    @Test("Over 4 KB is attributesTooLarge, with the daemon's figures")
    func payloadTooLarge() async throws {
        let world = try KitWorld()
        try await world.run {
            let big = String(repeating: "x", count: 5000)
            do {
                _ = try Activity<PizzaDeliveryAttributes>.request(
                    attributes: PizzaDeliveryAttributes(orderNumber: big),
                    content: ActivityContent(state: .init(driverName: "Ana", stopsAway: 1, onTheWay: false), staleDate: nil))
                Issue.record("a 5 KB activity was accepted")
            } catch ActivityAuthorizationError.attributesTooLarge {
                #expect((try? world.call("List"))?.first == .array(elementSignature: "(ssso)", []))
            }
            do {
                _ = try Activity<PizzaDeliveryAttributes>.request(
                    attributes: PizzaDeliveryAttributes(orderNumber: big), content: ActivityContent(
                        state: .init(driverName: "Ana", stopsAway: 1, onTheWay: false), staleDate: nil))
            } catch let error as ActivityAuthorizationError {
                #expect(error.message.contains("the limit is 4096"), "\(error.message)")
            }
        }
    }

    @Test("A key the kind does not declare is invalidContent naming the key; update refusals throw too")
    func unknownKey() async throws {
        let world = try KitWorld()
        try ActivityKindFile.install(CountdownAttributes.kindFile, for: CountdownAttributes.self, in: world.dataKindDirectory)
        try await world.run {
            let tooMany = CountdownAttributes.ContentState(detail: .init(note: "x", steps: [1, 2, 3, 4]), at: Date())
            do {
                _ = try Activity<CountdownAttributes>.request(attributes: CountdownAttributes(seconds: 3600, label: "L"),
                                                              content: ActivityContent(state: tooMany, staleDate: nil))
                Issue.record("an undeclared key was accepted")
            } catch let error as ActivityAuthorizationError {
                #expect(error.code == .invalidContent)
                #expect(error.message.contains("unknown state key \"detail.steps.3\""), "\(error.message)")
            }
            let fine = CountdownAttributes.ContentState(detail: .init(note: "x", steps: [1]), at: Date())
            let activity = try Activity<CountdownAttributes>.request(attributes: CountdownAttributes(seconds: 3600, label: "L"),
                                                                     content: ActivityContent(state: fine, staleDate: nil))
            await #expect(throws: ActivityAuthorizationError.invalidContent) {
                try await activity.throwingUpdate(ActivityContent(state: tooMany, staleDate: nil))
            }
            await activity.update(ActivityContent(state: tooMany, staleDate: nil))
            #expect(activity.content.state == fine)
            await activity.end(nil, dismissalPolicy: .immediate)
            await #expect(throws: ActivityAuthorizationError.activityNotActive) {
                try await activity.throwingUpdate(ActivityContent(state: fine, staleDate: nil))
            }
        }
    }

    @Test("No daemon on the bus is daemonUnavailable; activities is empty; not enabled")
    func noDaemon() async throws {
        let world = try KitWorld(startDaemon: false)
        await world.run {
            #expect(throws: ActivityAuthorizationError.daemonUnavailable) {
                _ = try Activity<PizzaDeliveryAttributes>.request(
                    attributes: PizzaDeliveryAttributes(orderNumber: "1"),
                    content: ActivityContent(state: .init(driverName: "Ana", stopsAway: 1, onTheWay: false), staleDate: nil))
            }
            #expect(Activity<PizzaDeliveryAttributes>.activities.isEmpty)
            #expect(ActivityAuthorizationInfo().areActivitiesEnabled == false)
        }
        DaemonLink.$busAddress.withValue("unix:path=/nonexistent/bus") {
            #expect(throws: ActivityAuthorizationError.daemonUnavailable) {
                _ = try Activity<PizzaDeliveryAttributes>.request(
                    attributes: PizzaDeliveryAttributes(orderNumber: "1"),
                    content: ActivityContent(state: .init(driverName: "Ana", stopsAway: 1, onTheWay: false), staleDate: nil))
            }
        }
    }

    @Test("Enabled off is denied, and activityEnablementUpdates reports the switch")
    func disabled() async throws {
        let world = try KitWorld()
        try await world.run {
            let info = ActivityAuthorizationInfo()
            #expect(info.areActivitiesEnabled)
            let switches = Waiter(info.activityEnablementUpdates)
            try world.setEnabled(false)
            #expect(await switches.next() == false)
            #expect(!info.areActivitiesEnabled)
            #expect(throws: ActivityAuthorizationError.denied) {
                _ = try Activity<PizzaDeliveryAttributes>.request(
                    attributes: PizzaDeliveryAttributes(orderNumber: "1"),
                    content: ActivityContent(state: .init(driverName: "Ana", stopsAway: 1, onTheWay: false), staleDate: nil))
            }
        }
    }
}
