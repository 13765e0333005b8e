import ActivityModel
import Glibc

/// The system's local time zone, read through the C library (TZ, /etc/localtime) instead of
/// Foundation's `TimeZone`, which would pull Foundation and ICU into the daemon's memory.
public enum LocalTime {
    /// Seconds east of UTC of local time at unix time `time` (DST as in force at that instant).
    /// The zone is read again each time (`tzset`: a stat of /etc/localtime, re-read only when
    /// replaced, or a changed TZ), so a zone change is seen without a restart.
    public static func utcOffset(at time: Double) -> Double {
        utcOffset(at: time, rereadingZone: true)
    }

    /// `utcOffset(at:)`, reading the zone again only when `rereadingZone` (the daemon's clock
    /// does so at most once a second: the stat costs more than the rest of a reading).
    public static func utcOffset(at time: Double, rereadingZone: Bool) -> Double {
        if rereadingZone { tzset() }
        var seconds = time_t(Int64(saturating: time.rounded(.down)))
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
