import DBus
import Foundation
import TestSupport
import Testing
@testable import LiveActivityKit

/// LiveActivityKit names the app its activities belong to (Start option `app-id`, issue 31).
@Suite("LiveActivityKit sends the app's id", .timeLimit(.minutes(5)))
struct AppIdentityKitTests {
    @Test func theDesktopEntryIDGoesWithStart() async throws {
        let world = try KitWorld()
        try ActivityKindFile.install(CountdownAttributes.kindFile, for: CountdownAttributes.self, in: world.dataKindDirectory)
        try await world.run {
            LiveActivityApp.desktopEntryID = "org.example.Countdown"
            defer { LiveActivityApp.desktopEntryID = nil }
            let activity = try Activity<CountdownAttributes>.request(
                attributes: CountdownAttributes(seconds: 60, label: "Tea"),
                content: ActivityContent(state: ActivityLifecycleTests.countdownState("steep"), staleDate: nil))
            #expect(try world.get(activity.id)["app-id"]?.string == "org.example.Countdown")
        }
    }
}
