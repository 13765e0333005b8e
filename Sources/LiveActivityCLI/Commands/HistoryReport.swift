import ActivityModel
import Foundation

/// `liveactivity history` and `liveactivity stats`: read the daemon's history file
/// (`$XDG_STATE_HOME/liveactivities/history.jsonl`) directly, so they work with or without
/// a running daemon, and show it as text for people or JSON for scripts.
struct HistoryReport {
    let entries: [HistoryEntry]
    /// Entries the daemon folded out of the history file when it rotated (`history-summary.json`).
    var summary = HistorySummary()
    /// Lines of the history file that could not be read, which `history` and `stats` mention.
    var unreadableLines = 0

    /// Reads the history file; a missing file is an empty history.
    init(paths: DaemonPaths) throws(CLIError) {
        let url = URL(fileURLWithPath: paths.historyFile)
        let summaryURL = url.deletingLastPathComponent().appendingPathComponent("history-summary.json")
        if let data = try? Data(contentsOf: summaryURL), let folded = try? JSONDecoder().decode(HistorySummary.self, from: data) {
            summary = folded
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
            entries = []
            return
        }
        do {
            let lines = HistoryLines(try Data(contentsOf: url))
            entries = lines.entries
            unreadableLines = lines.unreadableLines
        } catch {
            throw .refused("cannot read \(paths.historyFile): \(error.localizedDescription)")
        }
    }

    init(entries: [HistoryEntry]) { self.entries = entries }

    /// What to say about the lines left out ("1 history line could not be read"), or nil.
    var unreadableNote: String? { unreadableLines > 0 ? HistoryLines.unreadableNote(unreadableLines) : nil }

    // MARK: history

    /// The newest `limit` entries (all when `limit` is 0) of `kind` (all kinds when nil), newest first.
    func recent(kind: String?, limit: Int) -> [HistoryEntry] {
        let chosen = entries.filter { kind == nil || $0.kind == kind }.sorted { $0.endedAt > $1.endedAt }
        return limit > 0 ? Array(chosen.prefix(limit)) : chosen
    }

    static func historyText(_ entries: [HistoryEntry], timeZone: TimeZone = .current) -> String {
        guard !entries.isEmpty else { return "No ended activities yet." }
        let rows = entries.map { entry in
            [localTime(entry.endedAt, timeZone), entry.kind, entry.reason.rawValue, duration(entry.activeSeconds), entry.id]
        }
        return table(header: ["ended", "kind", "reason", "time", "id"], rows: rows)
    }

    static func historyJSON(_ entries: [HistoryEntry]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(entries) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: stats

    func statistics(now: Double, timeZoneOffset: Double) -> [String: KindStatistics] {
        Statistics.compute(entries: entries, summary: summary, now: now, timeZoneOffset: timeZoneOffset)
    }

    static func statsText(_ figures: [String: KindStatistics]) -> String {
        guard !figures.isEmpty else { return "No ended activities yet." }
        let rows = figures.keys.sorted().compactMap { kind -> [String]? in
            guard let f = figures[kind] else { return nil }
            return [kind, duration(f.todayTotalSeconds), f.dayStreak == 1 ? "1 day" : "\(f.dayStreak) days",
                    String(f.completedCount), String(f.cancelledCount), String(f.endedCount)]
        }
        return table(header: ["kind", "today", "streak", "completed", "cancelled", "ended"], rows: rows)
    }

    static func statsJSON(_ figures: [String: KindStatistics]) -> Any {
        figures.mapValues { f -> [String: Any] in
            ["today-seconds": f.todayTotalSeconds, "day-streak": f.dayStreak, "completed": f.completedCount,
             "cancelled": f.cancelledCount, "ended": f.endedCount]
        }
    }

    // MARK: formatting

    /// `45s`, `25m`, `1h 5m`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(saturating: max(0, seconds).rounded(.down))
        if total < 60 { return "\(total)s" }
        let hours = total / 3600, minutes = total / 60 % 60
        if hours == 0 { return "\(minutes)m" }
        return minutes == 0 ? "\(hours)h" : "\(hours)h \(minutes)m"
    }

    /// `2026-03-01 14:30` in `timeZone`; a time outside 1970–9999 (a damaged entry) as `invalid time`.
    static func localTime(_ time: Double, _ timeZone: TimeZone) -> String {
        guard InputLimits.isTime(time) else { return "invalid time" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: Date(timeIntervalSince1970: time))
        func pad(_ n: Int?) -> String { let v = n ?? 0; return v < 10 ? "0\(v)" : String(v) }
        return "\(c.year ?? 0)-\(pad(c.month))-\(pad(c.day)) \(pad(c.hour)):\(pad(c.minute))"
    }

    /// Left-aligned columns, two spaces apart.
    static func table(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column] + 2, withPad: " ", startingAt: 0)
            }.joined()
        }.joined(separator: "\n")
    }
}
