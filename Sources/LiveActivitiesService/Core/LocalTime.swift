import ActivityModel
import Glibc

/// The system's clocks, read through the C library instead of Foundation (which would pull
/// Foundation and ICU into the daemon's memory). The local zone is `SystemTimeZone`'s.
public enum LocalTime {
    /// Now, in unix seconds with sub-second precision (the wall clock, like `Date()`).
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }

    /// Seconds on CLOCK_BOOTTIME: like CLOCK_MONOTONIC, but counting time suspended, so the
    /// difference from the wall clock changes only when the wall clock is stepped.
    public static func boottime() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_BOOTTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }

    /// Seconds on CLOCK_MONOTONIC, which no wall-clock step moves: for intervals and throttling.
    public static func monotonic() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }
}
