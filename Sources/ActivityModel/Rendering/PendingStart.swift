/// When a pending activity starts, as its card and `Body` say it: `Starts at 14:00`,
/// `Starts tomorrow at 14:00`, `Starts in 3 days at 14:00` (local days). Exists so a scheduled
/// activity reads as one that has yet to begin, not as one that ended (issue 28).
struct PendingStart {
    let text: String
    /// The next local midnight when the wording names another day (then it changes); else nil.
    let nextChange: UnixTime?

    init(startsAt: UnixTime, now: UnixTime, timeZoneOffset: Double) {
        let clock = TimeFormat.formatClock(startsAt, timeZoneOffset: timeZoneOffset)
        let today = Self.localDay(now, timeZoneOffset)
        let days = Self.localDay(startsAt, timeZoneOffset) - today
        switch days {
        case ...0: text = "Starts at \(clock)"
        case 1: text = "Starts tomorrow at \(clock)"
        default: text = "Starts in \(Int(saturating: days)) days at \(clock)"
        }
        nextChange = days > 0 ? (today + 1) * 86_400 - timeZoneOffset : nil
    }

    /// The local day number (days since 1970-01-01 in local time).
    private static func localDay(_ time: UnixTime, _ timeZoneOffset: Double) -> Double {
        ((time + timeZoneOffset) / 86_400).rounded(.down)
    }
}
