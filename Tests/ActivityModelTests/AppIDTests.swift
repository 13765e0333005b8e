import Foundation
import Testing
@testable import ActivityModel

/// Start option `app-id`: a desktop entry id, checked, kept with the activity, and read back
/// from records written before it existed.
@Suite(.timeLimit(.minutes(1))) struct AppIDTests {
    @Test(arguments: ["org.gnome.Nautilus", "firefox-esr", "io.github.liveactivities", "a_b.C-9"])
    func desktopEntryIDsAreTaken(id: String) throws {
        var registry = shippedRegistry()
        let (started, _) = try registry.start(kind: "generic", attributes: [:], state: [:],
                                              options: StartOptions(appID: id + ".desktop"), now: t0)
        #expect(registry.activity(started.rawValue)?.appID == id, "a trailing .desktop is dropped")
    }

    @Test(arguments: [("", "empty"), ("org/gnome", "only A-Z"), ("org gnome", "only A-Z"), (".org", "must not be empty"),
                      ("org..gnome", "must not be empty"), (String(repeating: "a", count: 256), "at most 255"),
                      ("örg.x", "only A-Z")])
    func othersAreInvalidArgsAndStartNothing(id: String, problem: String) {
        var registry = shippedRegistry()
        do {
            _ = try registry.start(kind: "generic", attributes: [:], state: [:], options: StartOptions(appID: id), now: t0)
            Issue.record("\(id) was taken")
        } catch {
            #expect(error.name == "InvalidArgs")
            #expect(error.message.contains("app-id") && error.message.contains(problem), "\(error.message)")
        }
        #expect(registry.activities.isEmpty)
    }

    @Test func aRecordWithoutItStillLoads() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("old")], now: t0)
        let activity = try #require(registry.activity(id.rawValue))
        let record = try #require(activity.jsonRecord())
        #expect(!String(decoding: record, as: UTF8.self).contains("appID"), "written only when set, as before")
        let decoded = try JSONDecoder().decode(Activity.self, from: Data(record))
        #expect(decoded.appID == nil && decoded == activity)
    }

    @Test func aTamperedRecordIsRefused() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: [:], state: [:], options: StartOptions(appID: "org.x"), now: t0)
        let record = String(decoding: try #require(registry.activity(id.rawValue)?.jsonRecord()), as: UTF8.self)
        let tampered = try JSONDecoder().decode(Activity.self, from: Data(record.replacingOccurrences(of: "org.x", with: "../x").utf8))
        #expect(tampered.recordProblem?.contains("appID") == true)
    }
}
