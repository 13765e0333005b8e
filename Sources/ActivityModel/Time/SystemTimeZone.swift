import Glibc

/// The system's local time zone (TZ, /etc/localtime) read through the C library, without
/// Foundation's `TimeZone` and the ICU it would pull into the daemon's memory. The one zone
/// provider: the daemon reads it behind `ServiceClock` (`LoopClock`), the CLI through
/// `CommandLineTool.utcOffset`, and `HumanTime` is given it.
public enum SystemTimeZone {
    /// Seconds east of UTC of local time at unix time `time`, DST as in force then. The zone
    /// is read again first when `rereadingZone` (`tzset`: a stat of /etc/localtime, re-read
    /// only when replaced, or a changed TZ), so a zone change is seen without a restart.
    public static func utcOffset(at time: Double, rereadingZone: Bool = true) -> Double {
        if rereadingZone { tzset() }
        var seconds = time_t(Int64(saturating: time.rounded(.down)))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return 0 }
        return Double(parts.tm_gmtoff)
    }

    /// `utcOffset(at:)` in whole seconds, with the zone as the process last read it (a
    /// command-line run is short).
    @Sendable public static func utcOffset(at time: Int64) -> Int64 {
        Int64(utcOffset(at: Double(time), rereadingZone: false))
    }
}
