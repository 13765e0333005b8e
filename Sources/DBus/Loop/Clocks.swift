import Glibc

/// Nanosecond readings of the two clocks the loop uses: wall time for app deadlines
/// (so suspend and clock changes are honoured) and monotonic time for poll timeouts.
enum Clocks {
    /// `CLOCK_REALTIME` in nanoseconds since the epoch.
    static var realtimeNanoseconds: Int64 { read(CLOCK_REALTIME) }

    /// `CLOCK_MONOTONIC` in nanoseconds.
    static var monotonicNanoseconds: Int64 { read(CLOCK_MONOTONIC) }

    /// Unix seconds as nanoseconds, rounded up so a deadline never fires early; at least 1
    /// (a zero `it_value` would disarm a timerfd).
    static func nanoseconds(fromUnixTime unixTime: Double) -> Int64 {
        guard unixTime > 0 else { return 1 }
        let clamped = min(unixTime, 9_000_000_000)
        let seconds = clamped.rounded(.down)
        let fraction = ((clamped - seconds) * 1_000_000_000).rounded(.up)
        return max(1, Int64(seconds) * 1_000_000_000 + Int64(fraction))
    }

    /// An interval of `seconds` as nanoseconds, rounded up so a wait never ends early; negative
    /// or NaN is 0, and at most a year (a longer interval is a mistake, and a huge one would
    /// trap the conversion).
    static func nanoseconds(forInterval seconds: Double) -> Int64 {
        guard seconds > 0 else { return 0 }
        return Int64((min(seconds, 31_536_000) * 1_000_000_000).rounded(.up))
    }

    /// A `timespec` for a nanosecond count.
    static func timespec(nanoseconds: Int64) -> Glibc.timespec {
        Glibc.timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }

    private static func read(_ clock: clockid_t) -> Int64 {
        var now = Glibc.timespec()
        clock_gettime(clock, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
