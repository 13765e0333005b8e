/// Every bound put on what comes in from outside (the bus, the CLI, kind files, state files,
/// push messages), in one place so docs/limits.md can list them and each edge checks the same
/// numbers: a value past a bound is refused where it enters, so no later arithmetic, rendering
/// or conversion ever meets it.
public enum InputLimits {
    /// The earliest time accepted: 1970-01-01T00:00:00Z, in unix seconds.
    public static let earliestTime: Double = 0
    /// The latest time accepted: 9999-12-31T23:59:59Z, in unix seconds.
    public static let latestTime: Double = 253_402_300_799
    /// The longest duration accepted (a timer's length, a phase): 100 years of 365.25 days.
    public static let longestDuration: Double = 3_155_760_000
    /// How deep `[optional]` segments of a template may nest.
    public static let templateDepth = 16
    /// The most characters of one template.
    public static let templateCharacters = 4_096
    /// How deep parentheses and unary minus signs of a duration expression may nest.
    public static let expressionDepth = 32
    /// The most characters of one duration expression.
    public static let expressionCharacters = 256
    /// The largest kind file read.
    public static let kindFileBytes = 1 << 20

    /// Whether `time` is a finite moment from 1970 to the end of 9999.
    public static func isTime(_ time: Double) -> Bool {
        time.isFinite && time >= earliestTime && time <= latestTime
    }

    /// Whether `seconds` is a finite length no longer than `longestDuration` either way.
    public static func isDuration(_ seconds: Double) -> Bool {
        seconds.isFinite && abs(seconds) <= longestDuration
    }

    /// The range of times as messages say it.
    public static let timeRangeText = "a time from 1970 to 9999 (unix seconds 0 to 253402300799)"
}
