/// Per-kind figures from the history: today's completed time, the day streak and counts.
public struct KindStatistics: Equatable, Sendable {
    /// Active seconds of activities completed today (local day of their end).
    public var todayTotalSeconds: Double
    /// Consecutive local days, ending today or yesterday, with at least one completed activity.
    public var dayStreak: Int
    public var completedCount: Int
    public var cancelledCount: Int
    public var endedCount: Int

    public init(todayTotalSeconds: Double = 0, dayStreak: Int = 0, completedCount: Int = 0,
                cancelledCount: Int = 0, endedCount: Int = 0) {
        self.todayTotalSeconds = todayTotalSeconds
        self.dayStreak = dayStreak
        self.completedCount = completedCount
        self.cancelledCount = cancelledCount
        self.endedCount = endedCount
    }
}

/// Computes statistics from history entries; pure, the clock and time zone are parameters.
public enum Statistics {
    /// Figures for every kind that appears in `entries` or in the `summary` of entries folded
    /// out of the history file (entries the summary already counts are skipped).
    public static func compute(entries: [HistoryEntry], summary: HistorySummary = HistorySummary(), now: UnixTime,
                               timeZoneOffset: Double) -> [String: KindStatistics] {
        let today = localDay(now, timeZoneOffset)
        var result: [String: KindStatistics] = [:]
        var completedDays: [String: Set<Int64>] = [:]
        for (kind, folded) in summary.kinds {
            var figures = KindStatistics(completedCount: folded.completed, cancelledCount: folded.cancelled,
                                         endedCount: folded.ended)
            for (dayText, seconds) in folded.completedSecondsByDay {
                guard let day = Int64(dayText) else { continue }
                completedDays[kind, default: []].insert(day)
                if day == today { figures.todayTotalSeconds += seconds }
            }
            result[kind] = figures
        }
        for entry in entries where entry.endedAt > summary.foldedThrough {
            var figures = result[entry.kind] ?? KindStatistics()
            switch entry.reason {
            case .completed:
                figures.completedCount += 1
                let day = localDay(entry.endedAt, timeZoneOffset)
                completedDays[entry.kind, default: []].insert(day)
                if day == today { figures.todayTotalSeconds += entry.activeSeconds }
            case .cancelled: figures.cancelledCount += 1
            case .ended: figures.endedCount += 1
            }
            result[entry.kind] = figures
        }
        for (kind, days) in completedDays {
            var day = days.contains(today) ? today : today &- 1
            var streak = 0
            while days.contains(day) {
                streak += 1
                day &-= 1
            }
            result[kind]?.dayStreak = streak
        }
        return result
    }

    /// The local day number of a moment (days since 1970-01-01 in local time).
    public static func localDay(_ time: UnixTime, _ timeZoneOffset: Double) -> Int64 {
        Int64(saturating: ((time + timeZoneOffset) / 86_400).rounded(.down))
    }
}
