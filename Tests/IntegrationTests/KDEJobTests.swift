import DBus
import Foundation
import Testing
import TestSupport

/// The KDE job backend against a fake `org.kde.JobViewServer`: what the daemon asks the job
/// server for, how the card steps aside while a job shows the progress, and the cancel button.
@Suite("KDE jobs on a fake job server", .timeLimit(.minutes(5)))
struct KDEJobTests {
    /// A fixture whose bus has a fake job server before the daemon starts.
    private func fixture(config: String? = nil) throws -> (DaemonFixture, FakeJobViewServer) {
        var server: FakeJobViewServer?
        let f = try DaemonFixture(recorderName: "plasma", config: config) { bus in
            server = try FakeJobViewServer(bus: bus)
        }
        return (f, try #require(server))
    }

    @Test func activityWithProgressIsAJobUpdatedAndTerminatedWithIt() throws {
        let (f, jobs) = try fixture()
        let c = f.client
        let id = try c.start("generic", state: ["title": .string("Backup"), "body": .string("Copying photos"),
                                                "progress": .double(0.3)])
        #expect(c.waitFor { jobs.requests.count == 1 && jobs.percent(of: jobs.requests[0].path) == 30 })
        let request = try #require(jobs.requests.first)
        #expect(request.capabilities & 1 == 1, "killable: the job has a cancel button")
        #expect(request.hints["title"]?.string == "Backup")
        let calls = jobs.calls(on: request.path)
        #expect(calls.contains(.init(member: "setInfoMessage", arguments: [.string("Backup")])))
        #expect(calls.contains { $0.member == "setDescriptionField" && $0.arguments.last == .string("Copying photos") })

        try c.update(id, ["progress": .double(0.65)])
        #expect(c.waitFor { jobs.percent(of: request.path) == 65 })
        #expect(jobs.requests.count == 1, "one job per activity, updated in place")

        try c.end(id)
        #expect(c.waitFor { jobs.calls(on: request.path).contains { $0.member == "terminate" } })
        #expect(jobs.syncWithDaemon())
        #expect(jobs.calls(on: request.path).filter { $0.member == "terminate" }.count == 1)
    }

    @Test func theJobShowsTheBodyUnderTheKindsNameWithADeterminateBarAtZero() throws {
        let (f, jobs) = try fixture()
        let c = f.client
        _ = try c.start("focus", attributes: ["minutes": .uint32(25)])
        let now = Int64(Date().timeIntervalSince1970)
        _ = try c.start("generic", attributes: ["timer-start": .int64(now), "timer-end": .int64(now + 240)],
                        state: ["title": .string("Tea"), "body": .string("Green tea steeping")],
                        options: ["app-name": .string("Tea timer")])
        #expect(c.waitFor { jobs.requests.count == 2 && jobs.requests.allSatisfy { jobs.percent(of: $0.path) != nil } })
        let focus = try #require(jobs.requests.first { $0.hints["title"]?.string != "Tea" })
        let tea = try #require(jobs.requests.first { $0.hints["title"]?.string == "Tea" })
        #expect(focus.hints["application-display-name"] == .string("Focus"), "the kind's name, not liveactivityd")
        #expect(tea.hints["application-display-name"] == .string("Tea timer"), "the app-name option wins")
        let body = jobs.calls(on: tea.path).first { $0.member == "update" }?.arguments.first?.vardict?["infoMessage"]
        #expect(body?.string?.hasPrefix("Green tea steeping · ") == true,
                "the body, on one line, is the job's visible text (V3 infoMessage): \(String(describing: body))")
        let focusCalls = jobs.calls(on: focus.path)
        #expect(jobs.percent(of: focus.path) == 0)
        #expect(focusCalls.contains(.init(member: "setProcessedAmount", arguments: [.uint64(1), .string("bytes")])),
                "at 0% one byte of one processed keeps Plasma's bar determinate: \(focusCalls.map(\.member))")
    }

    @Test func theJobIsTheOnlyPopupAndAnAlertStillComesAsACard() throws {
        let (f, jobs) = try fixture()
        let c = f.client
        let id = try c.start("generic", state: ["title": .string("Upload"), "progress": .double(0.4)])
        #expect(c.waitFor { jobs.requests.count == 1 && jobs.percent(of: jobs.requests[0].path) == 40 })
        let barrier = try #require(try f.cardBarrier(), "a later card arrives")
        let cards = f.recorder?.calls.filter { $0.assignedID != barrier } ?? []
        #expect(cards.isEmpty, "no card beside the job: \(cards.map(\.summary))")
        let before = f.recorder?.calls.count ?? 0

        try c.update(id, ["progress": .double(0.5)], options: ["alert-title": .string("Half way")])
        #expect(f.waitForNotifies(before + 1))
        let alert = try #require(f.recorder?.calls.dropFirst(before).first)
        #expect(alert.summary == "Half way")
        #expect(alert.hints["urgency"] == .byte(1), "an alert pops the card up")
        #expect(alert.hints["value"] == nil && !alert.body.contains("50%"), "the job shows the progress, not the card")
        #expect(c.waitFor { jobs.percent(of: jobs.requests[0].path) == 50 })

        try c.end(id)
        #expect(c.waitFor { jobs.calls(on: jobs.requests[0].path).contains { $0.member == "terminate" } })
        #expect(f.waitForNotifies(before + 2), "the final card shows once the job is gone")
        #expect(f.recorder?.calls.last?.summary == "Upload")
    }

    @Test func cancelOnTheJobEndsTheActivityAsCancelled() throws {
        let (f, jobs) = try fixture()
        let c = f.client
        let id = try c.start("focus", attributes: ["minutes": .uint32(25)])
        #expect(c.waitFor { !jobs.requests.isEmpty })
        let path = try #require(jobs.requests.first?.path)
        #expect(c.waitFor { jobs.percent(of: path) != nil })
        jobs.pressCancel(on: path)
        #expect(c.waitFor { c.received("ActivityEnded").contains { $0 == [.string(id), .string("cancelled")] } })
        #expect(try c.get(id)["reason"]?.string == "cancelled")
        #expect(c.waitFor { jobs.calls(on: path).contains { $0.member == "terminate" } })
    }

    @Test func noProgressNoJobAndAJobServerArrivingLaterGetsTheJobs() throws {
        let f = try DaemonFixture(recorderName: "plasma")
        let c = f.client
        _ = try c.start("generic", state: ["title": .string("Plain")])
        let withProgress = try c.start("generic", state: ["title": .string("Sync"), "progress": .double(0.2)])
        let jobs = try FakeJobViewServer(bus: f.bus)
        #expect(c.waitFor { jobs.requests.count == 1 && jobs.percent(of: jobs.requests[0].path) == 20 })
        #expect(jobs.syncWithDaemon())
        #expect(jobs.requests.count == 1, "only the activity with progress is a job")
        #expect(jobs.requests.first?.hints["title"]?.string == "Sync")
        _ = withProgress
    }

    /// While no job server is there the daemon computes no job (issue 29): what a job shows is
    /// computed when a server appears, so a server that leaves and comes back shows the progress
    /// as of then, and the card is back while it is away.
    @Test func aJobServerThatLeavesAndComesBackShowsTheProgressAsOfThen() throws {
        let f = try DaemonFixture(recorderName: "plasma")
        let c = f.client
        let first = try FakeJobViewServer(bus: f.bus)
        let id = try c.start("generic", state: ["title": .string("Sync"), "progress": .double(0.2)])
        #expect(c.waitFor { first.requests.count == 1 && first.percent(of: first.requests[0].path) == 20 })
        let before = f.recorder?.calls.count ?? 0
        first.stop()
        #expect(f.waitForNotifies(before + 1), "the card is back while no job shows the activity")
        #expect(f.recorder?.calls.last?.summary == "Sync")
        try c.update(id, ["progress": .double(0.6)])
        let second = try FakeJobViewServer(bus: f.bus)
        #expect(c.waitFor { second.requests.count == 1 && second.percent(of: second.requests[0].path) == 60 })
        #expect(second.requests.first?.hints["title"]?.string == "Sync")
    }

    @Test func switchedOffInTheConfigNoJobs() throws {
        let (f, jobs) = try fixture(config: "kde-jobs = off\n")
        let c = f.client
        _ = try c.start("generic", state: ["title": .string("Nope"), "progress": .double(0.5)])
        #expect(f.waitForNotifies(1))
        #expect(jobs.syncWithDaemon())
        #expect(jobs.requests.isEmpty)
        #expect(f.recorder?.calls.last?.body.contains("50%") == true, "the card keeps its progress")
    }
}
