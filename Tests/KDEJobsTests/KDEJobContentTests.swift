import DBus
@testable import KDEJobs
import Testing

/// What a KDE job shows (the calls Plasma receives): the body under the heading without
/// expanding, the kind's or app's name in the header, and a determinate bar at 0%.
@Suite(.timeLimit(.minutes(5))) struct KDEJobContentTests {
    private func content(progress: Double?, body: String = "3h of 16h · 18%\ngoal at 01:36", paused: Bool = false,
                         live: Bool = true) -> KDEJobContent? {
        KDEJobContent.of(title: "Fasting", body: body, progress: progress, live: live, paused: paused,
                         appName: "Fasting", iconName: "appointment-soon")
    }

    private func members(_ calls: [KDEJobCall]) -> [String] { calls.map(\.member) }

    @Test func aNewJobShowsTheBodyAsV3InfoMessageOnOneLine() throws {
        let calls = try #require(content(progress: 0.18)).calls(from: nil)
        let update = try #require(calls.first { $0.member == "update" })
        #expect(update.interface == "org.kde.JobViewV3")
        #expect(update.arguments == [.vardict(["infoMessage": .string("3h of 16h · 18% · goal at 01:36")])])
        #expect(calls.contains(KDEJobCall(member: "setInfoMessage", arguments: [.string("Fasting")])))
        #expect(calls.contains(KDEJobCall(member: "setPercent", arguments: [.uint32(18)])))
        #expect(!members(calls).contains("setTotalAmount"), "a job past 0% needs no help to draw its bar")
    }

    @Test func theHeaderNamesTheAppAndItsIcon() throws {
        let hints = try #require(content(progress: 0.5)).requestHints
        #expect(hints["application-display-name"] == .string("Fasting"))
        #expect(hints["application-icon-name"] == .string("appointment-soon"))
        #expect(hints["immediate"] == .boolean(true))
        let bare = try #require(KDEJobContent.of(title: "T", body: "", progress: 0.5, live: true, paused: false))
        #expect(bare.requestHints["application-display-name"] == nil, "no empty name: Plasma would show nothing")
    }

    @Test func atZeroPercentOneByteOfOneKeepsTheBarDeterminateUntilProgressMoves() throws {
        let start = try #require(content(progress: 0))
        let first = start.calls(from: nil)
        #expect(first.contains(KDEJobCall(member: "setTotalAmount", arguments: [.uint64(1), .string("bytes")])))
        #expect(first.contains(KDEJobCall(member: "setProcessedAmount", arguments: [.uint64(1), .string("bytes")])))
        #expect(first.contains(KDEJobCall(member: "setPercent", arguments: [.uint32(0)])))

        let still = try #require(content(progress: 0.004))
        #expect(still.calls(from: start).isEmpty, "0.4% still shows 0%: nothing to send")

        let moved = try #require(content(progress: 0.012))
        let next = moved.calls(from: start)
        #expect(members(next) == ["setTotalAmount", "setProcessedAmount", "setPercent"])
        #expect(next.first?.arguments == [.uint64(0), .string("bytes")])
    }

    @Test func onlyWhatChangedIsSent() throws {
        let before = try #require(content(progress: 0.3))
        let after = try #require(content(progress: 0.3, body: "4h of 16h · 25%"))
        #expect(members(after.calls(from: before)) == ["update", "setDescriptionField"])
        let paused = try #require(content(progress: 0.3, paused: true))
        #expect(paused.calls(from: before) == [KDEJobCall(member: "setSuspended", arguments: [.boolean(true)])])
    }

    /// Issue 28, row 7: a line of the body holding a right-to-left override, joined to the next
    /// by " · ", must not reverse it: each line is isolated (FSI … PDI); plain lines stay as they are.
    @Test func aLineWithAnOverrideDoesNotReverseTheNextLineInTheJobMessage() throws {
        let job = try #require(KDEJobContent.of(title: "Build", body: "\u{202E}abc\n10:00 left", progress: 0.5, live: true, paused: false))
        #expect(job.message == "\u{2068}\u{202E}abc\u{2069} · 10:00 left")
        #expect(KDEJobContent.of(title: "Build", body: "abc\n10:00 left", progress: 0.5, live: true, paused: false)?.message == "abc · 10:00 left")
    }

    @Test func noProgressOrNotLiveNoJob() {
        #expect(content(progress: nil) == nil)
        #expect(content(progress: .nan) == nil)
        #expect(content(progress: 0.5, live: false) == nil)
        #expect(content(progress: 7)?.percent == 100)
    }
}
