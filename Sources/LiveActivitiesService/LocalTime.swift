import Glibc

/// The system's local time zone, read through the C library (TZ, /etc/localtime) instead of
/// Foundation's `TimeZone`, which would pull Foundation and ICU into the daemon's memory.
public enum LocalTime {
    /// Seconds east of UTC of local time at unix time `time` (DST as in force at that instant).
    public static func utcOffset(at time: Double) -> Double {
        var seconds = time_t(time.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return 0 }
        return Double(parts.tm_gmtoff)
    }

    /// Now, in unix seconds with sub-second precision (the wall clock, like `Date()`).
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }

    /// Seconds on CLOCK_MONOTONIC, which no wall-clock step moves: for intervals and throttling.
    public static func monotonic() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }
}
