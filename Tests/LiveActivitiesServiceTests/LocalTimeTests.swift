import Foundation
import Glibc
import Testing
import LiveActivitiesService

/// The daemon's local UTC offset (cards show local clock times): the same as Foundation's
/// `TimeZone` in whatever zone the tests run, and right across DST in zones set explicitly.
/// Serialized because one test switches the process's TZ for a moment.
@Suite(.serialized) struct LocalTimeTests {
    /// 2026-01-01T00:00:00Z.
    static let newYear2026 = 1_767_225_600.0

    @Test func matchesFoundationOverAYear() {
        for step in 0..<(366 * 4) {
            let time = Self.newYear2026 + Double(step) * 6 * 3600 + 1234.5
            let expected = Double(TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: time)))
            #expect(LocalTime.utcOffset(at: time) == expected, "at \(time)")
        }
    }

    @Test func followsTheZoneAtTheGivenInstant() {
        // Central European rules, written out so no tz database is needed: CEST from the last
        // Sunday of March, 01:00 UTC, to the last Sunday of October, 01:00 UTC.
        withZone("CET-1CEST,M3.5.0,M10.5.0/3") {
            let springForward = 1_774_746_000.0 // 2026-03-29T01:00:00Z
            let fallBack = 1_792_890_000.0 // 2026-10-25T01:00:00Z
            #expect(LocalTime.utcOffset(at: Self.newYear2026) == 3600)
            #expect(LocalTime.utcOffset(at: springForward - 1) == 3600)
            #expect(LocalTime.utcOffset(at: springForward) == 7200)
            #expect(LocalTime.utcOffset(at: fallBack - 0.5) == 7200)
            #expect(LocalTime.utcOffset(at: fallBack) == 3600)
        }
        withZone("IST-5:30") {
            #expect(LocalTime.utcOffset(at: Self.newYear2026) == 19_800)
        }
        withZone("UTC0") {
            #expect(LocalTime.utcOffset(at: Self.newYear2026) == 0)
        }
    }

    @Test func nowIsTheWallClock() {
        #expect(abs(LocalTime.now() - Date().timeIntervalSince1970) < 1)
    }

    /// Runs `body` with the process's TZ set to `zone`, then puts the old value back.
    private func withZone(_ zone: String, _ body: () -> Void) {
        let previous = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", zone, 1)
        tzset()
        body()
        if let previous { setenv("TZ", previous, 1) } else { unsetenv("TZ") }
        tzset()
    }
}
