/// `liveactivity stats --by day` and `--by task`: the history's ended activities grouped by
/// local day or by task, with focused and away time. Pure (the time zone is a parameter), so
/// the grouping is a table test.
public struct HistoryBreakdown: Equatable, Sendable {
    /// One group: its key (a local date `2026-12-01`, or a task name) and kind, and its figures.
    public struct Row: Equatable, Sendable {
        public var key: String
        public var kind: String
        public var sessions = 0
        public var completed = 0
        public var focusedSeconds = 0.0
        public var awaySeconds = 0.0
    }

    /// How the rows are grouped.
    public enum Grouping: String, Sendable, CaseIterable {
        case day, task
    }

    public var rows: [Row]

    /// Groups `entries` (each counted on the local day it ended); rows by day are newest first,
    /// rows by task are most focused first; ties by key, then kind.
    public static func of(_ entries: [HistoryEntry], by grouping: Grouping, timeZoneOffset: (Double) -> Double) -> HistoryBreakdown {
        var rows: [String: Row] = [:]
        for entry in entries {
            let key: String
            switch grouping {
            case .day: key = localDate(entry.endedAt, offset: timeZoneOffset(entry.endedAt))
            case .task: key = entry.task ?? entry.title ?? entry.kind
            }
            let slot = key + "\u{0}" + entry.kind
            var row = rows[slot] ?? Row(key: key, kind: entry.kind)
            row.sessions += 1
            if entry.reason == .completed { row.completed += 1 }
            row.focusedSeconds += Self.duration(entry.focusedSeconds)
            row.awaySeconds += Self.duration(entry.awaySeconds ?? 0)
            rows[slot] = row
        }
        let sorted = rows.values.sorted { a, b in
            switch grouping {
            case .day: return (a.key, b.kind) > (b.key, a.kind)
            case .task:
                if a.focusedSeconds != b.focusedSeconds { return a.focusedSeconds > b.focusedSeconds }
                return (a.key, a.kind) < (b.key, b.kind)
            }
        }
        return HistoryBreakdown(rows: sorted)
    }

    /// A recorded duration as counted: a damaged one (negative, not finite, beyond the limits) counts 0.
    static func duration(_ seconds: Double) -> Double {
        InputLimits.isDuration(seconds) ? seconds : 0
    }

    /// `YYYY-MM-DD` of a moment at a UTC offset (proleptic Gregorian, days from 1970-01-01).
    public static func localDate(_ time: UnixTime, offset: Double) -> String {
        guard InputLimits.isTime(time), offset.isFinite, abs(offset) <= 86_400 else { return "invalid time" }
        let days = Statistics.localDay(time, offset)
        // Civil from days (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ n: Int64, _ width: Int) -> String {
            let text = String(n)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}
