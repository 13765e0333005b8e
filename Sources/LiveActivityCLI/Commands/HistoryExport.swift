import ActivityModel
import Foundation

/// The history in forms to take away: `history --format csv|json` (one row per ended
/// activity: kind, title, start, end, reason, focused and away seconds) and
/// `stats --by day|task`. Exists so a spreadsheet or a script gets the same figures as `stats`,
/// with client text (titles, tasks) quoted so it survives any character.
enum HistoryExport {
    static let columns = ["id", "kind", "title", "task", "start", "end", "reason", "focused-seconds", "away-seconds"]

    /// One row's values, in `columns` order; times as ISO 8601 with the local offset.
    static func fields(_ entry: HistoryEntry, timeZone: TimeZone) -> [String] {
        [entry.id, entry.kind, entry.title ?? "", entry.task ?? "", isoTime(entry.startedAt, timeZone),
         isoTime(entry.endedAt, timeZone), entry.reason.rawValue, seconds(entry.focusedSeconds),
         seconds(entry.awaySeconds ?? 0)]
    }

    /// RFC 4180 CSV, every record ended by CRLF. The last CRLF is left to the line the CLI
    /// writes (it adds the "\n"), so the output is byte for byte the table.
    static func csv(_ entries: [HistoryEntry], timeZone: TimeZone = .current) -> String {
        let table = CSVText.table(header: columns, rows: entries.map { fields($0, timeZone: timeZone) })
        return String(table.dropLast())  // drops the final "\r\n" grapheme…
            + "\r"                       // …and keeps its CR; the writer adds the LF
    }

    /// A JSON array of objects keyed by `columns`; times as unix seconds and ISO 8601.
    static func json(_ entries: [HistoryEntry], timeZone: TimeZone = .current) -> String {
        let rows: [[String: Any]] = entries.map { entry in
            ["id": entry.id, "kind": entry.kind, "title": entry.title ?? "", "task": entry.task ?? "",
             "started-at": finite(entry.startedAt), "ended-at": finite(entry.endedAt),
             "start": isoTime(entry.startedAt, timeZone), "end": isoTime(entry.endedAt, timeZone),
             "reason": entry.reason.rawValue, "focused-seconds": finite(entry.focusedSeconds),
             "away-seconds": finite(entry.awaySeconds ?? 0)]
        }
        return OutputFormat.json(rows)
    }

    /// A number JSON can carry (a damaged entry's NaN or infinity as 0).
    static func finite(_ value: Double) -> Double { value.isFinite ? value : 0 }

    /// `stats --by day|task` as a table.
    static func breakdownText(_ breakdown: HistoryBreakdown, grouping: HistoryBreakdown.Grouping) -> String {
        guard !breakdown.rows.isEmpty else { return "No ended activities yet." }
        let rows = breakdown.rows.map { row in
            [TerminalText.neutralised(row.key), TerminalText.neutralised(row.kind), String(row.sessions), String(row.completed),
             HistoryReport.duration(row.focusedSeconds), HistoryReport.duration(row.awaySeconds)]
        }
        return HistoryReport.table(header: [grouping.rawValue, "kind", "sessions", "completed", "focused", "away"], rows: rows)
    }

    /// `stats --by day|task --json`: an array of rows.
    static func breakdownJSON(_ breakdown: HistoryBreakdown, grouping: HistoryBreakdown.Grouping) -> String {
        OutputFormat.json(breakdown.rows.map { row -> [String: Any] in
            [grouping.rawValue: row.key, "kind": row.kind, "sessions": row.sessions, "completed": row.completed,
             "focused-seconds": row.focusedSeconds, "away-seconds": row.awaySeconds]
        })
    }

    /// Whole seconds as text (the history keeps fractions; a sheet wants integers).
    static func seconds(_ value: Double) -> String {
        InputLimits.isDuration(value) ? String(Int(value.rounded(.down))) : "0"
    }

    /// `2026-12-01T14:30:00+01:00` in `timeZone`; a damaged time as `invalid time`.
    static func isoTime(_ time: Double, _ timeZone: TimeZone) -> String {
        guard InputLimits.isTime(time) else { return "invalid time" }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = timeZone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: time.rounded(.down)))
    }
}
