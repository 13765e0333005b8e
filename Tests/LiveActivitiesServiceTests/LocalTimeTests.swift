import Foundation
import Glibc
import Testing
import LiveActivitiesService

/// The daemon's local UTC offset (cards show local clock times): the same as Foundation's
/// `TimeZone` over a year of zones with summer time, and right at the very second of each change.
/// Serialized because one test switches the process's TZ for a moment.
@Suite(.serialized, .timeLimit(.minutes(3))) struct LocalTimeTests {
    /// 2026-01-01T00:00:00Z.
    static let newYear2026 = 1_767_225_600.0

    /// Every 6 hours of 2026 in two zones with summer time, written as POSIX rules (read by the
    /// C library) and compared with Foundation's own time-zone data for the same places: the
    /// offsets must agree, and both standard and summer time must have been seen.
    @Test(arguments: [("CET-1CEST,M3.5.0,M10.5.0/3", "Europe/Berlin"), ("EST5EDT,M3.2.0,M11.1.0", "America/New_York")])
    func matchesFoundationOverAYear(rule: String, identifier: String) throws {
        let foundation = try #require(TimeZone(identifier: identifier))
        var seen = Set<Double>()
        withZone(rule) {
            for step in 0..<(365 * 4) {
                let time = Self.newYear2026 + Double(step) * 6 * 3600 + 1234.5
                let expected = Double(foundation.secondsFromGMT(for: Date(timeIntervalSince1970: time)))
                #expect(LocalTime.utcOffset(at: time) == expected, "\(identifier) at \(time)")
                seen.insert(LocalTime.utcOffset(at: time))
            }
        }
        #expect(seen.count == 2, "standard and summer time: \(seen.sorted())")
        #expect(!seen.contains(0))
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
