/// How a placeholder shows a duration, a fraction or a moment.
///
/// | format | example |
/// | --- | --- |
/// | `m:ss` | `1:05` (total minutes) |
/// | `h:mm:ss` / `hh:mm:ss` | `1:05:09` / `01:05:09` |
/// | `h:mm` / `hh:mm` | `1:05` / `01:05` (hours and minutes) |
/// | `timer` | `5:09` under an hour, `1:05:09` above (the default for times) |
/// | `duration` | `1h 5m`, `16h`, `25m` |
/// | `percent` | `45%` |
/// | `clock` | `14:30` (a moment in local time) |
/// | `text` | the value as it is |
public enum TimeFormat: String, Sendable, CaseIterable {
    case minutesSeconds = "m:ss"
    case hoursMinutesSeconds = "h:mm:ss"
    case paddedHoursMinutesSeconds = "hh:mm:ss"
    case hoursMinutes = "h:mm"
    case paddedHoursMinutes = "hh:mm"
    case timer
    case duration
    case percent
    case clock
    case text

    /// Whether the format shows seconds.
    var showsSeconds: Bool {
        switch self {
        case .minutesSeconds, .hoursMinutesSeconds, .paddedHoursMinutesSeconds, .timer: return true
        default: return false
        }
    }

    /// The format actually used: without seconds when the style forbids them.
    func effective(showSeconds: Bool) -> TimeFormat {
        guard !showSeconds else { return self }
        switch self {
        case .hoursMinutesSeconds: return .hoursMinutes
        case .paddedHoursMinutesSeconds: return .paddedHoursMinutes
        case .minutesSeconds, .timer: return .duration
        default: return self
        }
    }

    /// The step, in seconds, at which a shown duration changes.
    var durationUnit: Double { showsSeconds || self == .text ? 1 : 60 }

    /// Shows `seconds` (already rounded to `durationUnit`) in this format.
    func formatDuration(_ seconds: Double) -> String {
        let total = seconds.isFinite ? Int64(saturating: max(0, seconds).rounded(.down)) : 0
        let hours = total / 3600
        let minutes = total / 60 % 60
        let remainder = total % 60
        switch self {
        case .minutesSeconds:
            return "\(total / 60):\(pad(remainder))"
        case .hoursMinutesSeconds:
            return "\(hours):\(pad(minutes)):\(pad(remainder))"
        case .paddedHoursMinutesSeconds:
            return "\(pad(hours)):\(pad(minutes)):\(pad(remainder))"
        case .hoursMinutes:
            return "\(hours):\(pad(minutes))"
        case .paddedHoursMinutes:
            return "\(pad(hours)):\(pad(minutes))"
        case .timer:
            return hours > 0 ? "\(hours):\(pad(minutes)):\(pad(remainder))" : "\(total / 60):\(pad(remainder))"
        case .duration:
            if hours > 0 { return minutes > 0 ? "\(hours)h \(minutes)m" : "\(hours)h" }
            return "\(minutes)m"
        case .percent:
            return TimeFormat.formatPercent(seconds)
        case .clock:
            return TimeFormat.formatClock(seconds, timeZoneOffset: 0)
        case .text:
            return Value.plainNumber(seconds)
        }
    }

    /// `0.456` as `45%` (rounded down, so 100% means done).
    static func formatPercent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return "" }
        return "\(percentStep(fraction))%"
    }

    /// The whole percent shown for `fraction`, tolerant of floating-point noise.
    static func percentStep(_ fraction: Double) -> Int {
        ShownPercent.of(fraction)
    }

    /// A moment as `HH:mm` on the local wall clock.
    static func formatClock(_ time: UnixTime, timeZoneOffset: Double) -> String {
        guard time.isFinite else { return "" }
        let local = Int64(saturating: (time + timeZoneOffset).rounded(.down))
        let secondsOfDay = ((local % 86_400) + 86_400) % 86_400
        return "\(pad(secondsOfDay / 3600)):\(pad(secondsOfDay / 60 % 60))"
    }
}

private func pad(_ number: Int64) -> String {
    number < 10 ? "0\(number)" : String(number)
}
