import Testing
@testable import ActivityModel

/// Issue 18, point 1: no Double→Int conversion can trap. Each site that turns a number into an
/// integer (time formats, the clock, history days, number text, rendering at any moment and
/// zone, the next deadline) is called with every hostile value; on `main`, 1e300 and ±9.3e18
/// stopped the process with "Double value cannot be converted to Int64".
@Suite(.timeLimit(.minutes(5))) struct ConversionSweepTests {
    static let hostile: [Double] = [1e300, -1e300, 9.3e18, -9.3e18, 9.223372036854775807e18, .nan, .infinity,
                                    -.infinity, -0.0, 0, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                                    .leastNonzeroMagnitude, 253_402_300_800]

    @Test(arguments: hostile)
    func saturatingConversionsClampInsteadOfTrapping(value: Double) {
        let converted = Int64(saturating: value)
        if value.isNaN { #expect(converted == 0) }
        else if value >= 9.223372036854775807e18 { #expect(converted == .max) }
        else if value <= -9.3e18 { #expect(converted == .min) }
        else { #expect(converted == Int64(value)) }
        #expect(Int(saturating: value) == Int(converted))
    }

    @Test(arguments: hostile)
    func everyFormatShowsAHostileNumberWithoutTrapping(value: Double) {
        for format in TimeFormat.allCases {
            _ = format.formatDuration(value)
        }
        #expect(!TimeFormat.timer.formatDuration(value).isEmpty)
        _ = TimeFormat.formatClock(value, timeZoneOffset: 0)
        _ = TimeFormat.formatClock(1_700_000_000, timeZoneOffset: value)
        _ = TimeFormat.formatPercent(value)
        _ = Statistics.localDay(value, 0)
        _ = Statistics.localDay(0, value)
        _ = Value.double(value).displayText
        _ = ShownPercent.of(value)
    }

    @Test(arguments: hostile)
    func renderingAtAHostileMomentOrZoneDoesNotTrap(value: Double) throws {
        let body = "{elapsed|m:ss} {remaining|h:mm:ss} {timer} {goal|duration} {end|clock} {start} {now} {progress} {attr.length|hh:mm}"
        let (registry, id) = try probeRegistry(body: body, progress: ["timer"])
        _ = try registry.render(id: id.rawValue, now: value, timeZoneOffset: 0)
        _ = try registry.render(id: id.rawValue, now: t0, timeZoneOffset: value)
        _ = registry.compactText(now: value, timeZoneOffset: value)
        _ = registry.nextDeadline(after: value, timeZoneOffset: 0)
    }

    /// The CLI's human times add and multiply integers: past Int64 they are refused (nil), not a trap.
    @Test func humanTimeArithmeticRefusesOverflow() {
        let clock = HumanTime(now: 1_796_122_800, utcOffset: { _ in 0 })
        #expect(clock.moment("+9223372036854775807", anchor: .future) == nil)
        let past = HumanTime(now: -2, utcOffset: { _ in 0 })
        #expect(past.moment("-9223372036854775807", anchor: .past) == nil)
        #expect(HumanTime.duration(String(repeating: "999999999d", count: 110_000)) == nil)
        #expect(HumanTime.duration("1h30m") == 5_400)
    }

    /// A number state value shown in every time format, for kinds that accept extra state.
    @Test(arguments: hostile.filter(\.isFinite))
    func aHugeFiniteStateNumberRendersInEveryFormat(value: Double) throws {
        let body = TimeFormat.allCases.map { "{state.n|\($0.rawValue)}" }.joined(separator: " ")
        var (registry, id) = try probeRegistry(body: body, extra: ", \"extra-state\": true")
        _ = try registry.update(id: id.rawValue, state: ["n": .double(value)], now: t0)
        let card = try registry.render(id: id.rawValue, now: t0, timeZoneOffset: 0)
        #expect(!card.body.isEmpty)
    }
}
