import DBus
import Foundation
import Testing
import TestSupport

/// What survives SIGKILL: everything acknowledged, from the state file, with the same cards.
@Suite("Persistence across crashes", .timeLimit(.minutes(5)))
struct PersistenceTests {
    @Test func killedDaemonRestoresActivitiesAndEnabled() throws {
        let f = try DaemonFixture(recorderName: "dunst")
        let c = f.client
        _ = try c.start("generic", state: ["title": .string("kept"), "progress": .double(0.3)],
                        options: ["id": .string("kept"), "relevance": .double(2)])
        _ = try c.start("generic", state: ["title": .string("other")], options: ["id": .string("other")])
        try c.update("kept", ["progress": .double(0.75), "body": .string("latest")])
        try c.end("other")
        let startedAt = try c.get("kept")["started-at"]
        #expect(f.waitForNotifies(2))
        let cardID = try #require(f.recorder?.calls.first { $0.summary.contains("kept") }?.assignedID)

        #expect(FileManager.default.fileExists(atPath: f.daemon.stateFile.path))
        // The card's id comes back from the server after the Notify the recorder saw; a crash
        // before the daemon saved it would rightly make a second card. Wait for it to be saved.
        #expect(waitUntil { SavedState.notificationID(of: "kept", in: f.daemon.stateDirectory) == cardID },
                "the card's id is saved")
        f.daemon.kill()
        let before = f.recorder?.calls.count ?? 0
        try f.daemon.start()

        let restored = try c.get("kept")
        #expect(restored["started-at"] == startedAt)
        #expect(restored["progress"]?.double == 0.75)
        #expect(restored["state"]?.vardict?["body"]?.string == "latest")
        #expect(restored["relevance"]?.double == 2)
        #expect(try c.get("other")["status"]?.string == "ended")
        #expect(f.waitForNotifies(before + 1), "the card is shown again")
        let again = f.recorder?.calls.dropFirst(before).first { $0.summary.contains("kept") }
        #expect(again?.replacesID == cardID, "the restarted daemon replaces its old card, not a second one")
    }

    @Test func stateFileIsValidJSONAfterEveryChange() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        let id = try c.start("generic", state: ["title": .string("j")])
        let journal = f.daemon.stateDirectory.appendingPathComponent("state.journal")
        for i in 0..<20 {
            try c.update(id, ["body": .string("n\(i)")])
            let data = try Data(contentsOf: f.daemon.stateFile)
            #expect((try? JSONSerialization.jsonObject(with: data)) != nil)
            // An update is appended to the journal beside state.json (folded into it later).
            let journalText = (try? String(contentsOf: journal, encoding: .utf8)) ?? ""
            let lastRecord = journalText.split(separator: "\n").last.map { Data($0.utf8) } ?? Data()
            #expect((try? JSONSerialization.jsonObject(with: lastRecord)) != nil, "every journal record is JSON")
            #expect(String(decoding: data, as: UTF8.self).contains("n\(i)") || journalText.contains("\"n\(i)\""),
                    "update \(i) is on disk before the reply")
        }
    }

    @Test func endedActivitiesGoToHistory() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        let id = try c.start("generic", state: ["title": .string("h")])
        try c.end(id, options: ["reason": .string("cancelled")])
        let text = try String(contentsOf: f.daemon.historyFile, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 1)
        #expect(text.contains(id) && text.contains("cancelled"))
    }

    @Test func unwritableStateDirectoryIsReportedAndServingGoesOn() throws {
        let bus = try PrivateBus()
        let daemon = try DaemonProcess(bus: bus, start: false)
        let blocker = daemon.home.url.appendingPathComponent("state")
        try? FileManager.default.removeItem(at: blocker)
        try "not a directory".write(to: blocker, atomically: true, encoding: .utf8)
        daemon.extraEnvironment["XDG_STATE_HOME"] = blocker.path
        try daemon.start()
        let c = try TestClient(bus: bus)
        // Nothing acknowledged without persistence (issue 14): the Start is refused, by name.
        let refusal = c.error { _ = try c.start("generic", state: ["title": .string("no disk")]) }
        #expect(refusal?.name == "io.github.liveactivities.LiveActivities1.Error.StorageFailed")
        #expect(try c.list().isEmpty, "reads go on and the refused Start changed nothing")
        #expect(daemon.log().contains("cannot"), "the log says the state cannot be written: \(daemon.log())")
    }
}
