import Glibc

/// The system's local time zone (TZ, /etc/localtime) read through the C library, so
/// `HumanTime` can be given the real zone without Foundation's ICU.
public enum SystemTimeZone {
    /// Seconds east of UTC of local time at unix time `time`, DST as in force then.
    @Sendable public static func utcOffset(at time: Int64) -> Int64 {
        var seconds = time_t(time)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return 0 }
        return Int64(parts.tm_gmtoff)
    }
}
