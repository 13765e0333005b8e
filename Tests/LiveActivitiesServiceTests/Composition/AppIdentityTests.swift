import ActivityModel
import Foundation
import Notifications
import Testing
@testable import LiveActivitiesService

/// Cards carry their app's desktop entry (`app-id`, or a Flatpak caller's id), else ours.
@Suite(.timeLimit(.minutes(1))) struct AppIdentityTests {
    static func snapshot(appID: String?) throws -> ActivitySnapshot {
        var registry = ActivityRegistry(catalog: ServiceTestKinds.catalog, idSeed: 1)
        _ = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("Build")],
                               options: StartOptions(id: "b", appID: appID), now: CardComposerTests.t0)
        let activity = try #require(registry.activity("b"))
        return ActivitySnapshot(activity: activity, rendered: try registry.render(id: "b", now: CardComposerTests.t0, timeZoneOffset: 0))
    }

    @Test func aCardCarriesItsAppsDesktopEntryElseOurs() throws {
        #expect(CardComposer.baseCard(of: try Self.snapshot(appID: "org.example.Focus"), kindDisplayName: nil).desktopEntry
                == "org.example.Focus")
        #expect(CardComposer.baseCard(of: try Self.snapshot(appID: nil), kindDisplayName: nil).desktopEntry == "io.github.liveactivities")
        let request = NotificationRequest.make(card: CardComposer.baseCard(of: try Self.snapshot(appID: "org.example.Focus"),
                                                                           kindDisplayName: nil), profile: .fallback, alert: nil)
        #expect(request.hints["desktop-entry"] == .string("org.example.Focus"))
    }

    @Test func flatpakInfoNamesTheApplication() {
        let info = "[Application]\nname=org.gnome.Maps\nruntime=runtime/org.gnome.Platform/x86_64/48\n\n[Instance]\nname=other\n"
        #expect(CallerApps.applicationName(inFlatpakInfo: info) == "org.gnome.Maps")
        #expect(CallerApps.applicationName(inFlatpakInfo: "[Instance]\nname=org.gnome.Maps\n") == nil, "only [Application]")
        #expect(CallerApps.applicationName(inFlatpakInfo: "[Application]\nname=../../etc\n") == nil, "not a desktop entry id")
    }

    @Test func aProcessInAFlatpakIsKnownByItsInfoFile() throws {
        let root = NSTemporaryDirectory() + "la-proc-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/4242/root", withIntermediateDirectories: true)
        try Data("[Application]\nname=com.example.Timer\n".utf8).write(to: URL(fileURLWithPath: root + "/4242/root/.flatpak-info"))
        let apps = CallerApps(connection: nil, processRoot: root)
        #expect(apps.flatpakAppID(pid: 4242) == "com.example.Timer")
        #expect(apps.flatpakAppID(pid: 4243) == nil, "not in a Flatpak")
        #expect(apps.flatpakAppID(of: ":1.7") == nil, "no bus to ask")
    }
}
