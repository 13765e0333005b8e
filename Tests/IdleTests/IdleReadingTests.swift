import DBus
@testable import Idle
import Testing

/// What counts as an idle reading (issue 28, row 5), as a table: the answer of
/// `GetSessionIdleTime`, the unit of who answered, and what the daemon makes of it.
@Suite(.timeLimit(.minutes(2))) struct IdleReadingTests {
    static let tenYears = IdleReading.maximumSeconds

    @Test(arguments: [
        (DBusConnection.CallResult.success([.uint32(1500)]), IdleTimeUnit.milliseconds, IdleReading.idle(1.5)),
        (.success([.uint32(1500)]), .seconds, .idle(1500)),
        (.success([.uint32(0)]), .milliseconds, .idle(0)),
        (.success([.uint32(.max)]), .milliseconds, .idle(4_294_967.295)),
        (.success([.int64(315_576_000)]), .seconds, .idle(tenYears)),
    ])
    func readings(result: DBusConnection.CallResult, unit: IdleTimeUnit, expected: IdleReading) {
        #expect(IdleReading(result, unit: unit) == expected)
    }

    @Test(arguments: [
        DBusConnection.CallResult.success([.string("soon")]),
        .success([.double(3.5)]),
        .success([]),
        .success([.uint32(1), .uint32(2)]),
        .success([.int64(.min)]),
        .success([.int32(-1)]),
        .success([.uint64(.max)]),
        .success([.int64(315_576_001)]),
        .failure(.noReply("timed out")),
        .failure(.serviceUnknown("gone")),
    ])
    func notReadings(result: DBusConnection.CallResult) {
        guard case .failed = IdleReading(result, unit: .seconds) else {
            Issue.record("\(result) was taken as \(IdleReading(result, unit: .seconds))")
            return
        }
    }

    @Test func notSupportedMeansAnotherSourceMustTell() {
        let error = DBusError(name: "org.freedesktop.DBus.Error.NotSupported", message: "GetSessionIdleTime is not supported on this platform")
        #expect(IdleReading(.failure(error), unit: .milliseconds) == .unsupported)
    }

    @Test func theBackOffStartsAt30SecondsDoublesTo300AndStartsOver() {
        var retry = IdleRetry()
        let waits = (0..<6).map { _ in retry.failed() }
        #expect(waits.map(\.after) == [30, 60, 120, 240, 300, 300])
        #expect(waits.map(\.log) == [true, false, false, false, false, false], "one log line per run of failures")
        let ended = retry.succeeded(), endedAgain = retry.succeeded()
        #expect(ended, "a good reading ends the run (and says so)")
        #expect(!endedAgain)
        let next = retry.failed()
        #expect(next.after == 30 && next.log)
    }
}
