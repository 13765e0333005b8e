import Testing
@testable import Notifications

/// `VariantTypeInfoCache` helps only while it holds the type the routine replace really sends:
/// a change to Notify's arguments must change the held list too (issue 29).
@Suite(.timeLimit(.minutes(1)))
struct VariantTypeInfoCacheTests {
    @Test(arguments: [NotificationRequestTests.dunst, NotificationRequestTests.gnome, NotificationRequestTests.xfce])
    func theRoutineReplacesArgumentsAreOfAHeldType(profile: ServerProfile) {
        VariantTypeInfoCache.hold()  // makes the held values (from empty data) before the check
        let request = NotificationRequest.make(card: NotificationRequestTests.card, profile: profile, alert: nil)
        // A floating value, left to the test process.
        #expect(VariantTypeInfoCache.holds(typeOf: RoutineReplace.arguments(of: request, replacing: 7)))
    }
}
