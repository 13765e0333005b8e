import ActivityFiles
import ActivityModel
import Foundation

/// The commands that read the daemon's files instead of calling it: `kinds`, `history`,
/// `stats`. They resolve the same directories as the daemon (`DaemonPaths`), so they answer
/// even when no daemon runs.
extension CommandLineTool {
    static let localCommands: Set<String> = ["kinds", "history", "stats"]

    func runLocal(_ command: ParsedCommand) throws(CLIError) {
        let executable = RunningExecutable.path
        let paths = DaemonPaths.resolve(environment: environment, executable: executable)
        let json = command.flags.contains("json")
        switch command.spec.name {
        case "kinds":
            let report = KindReport(paths: paths)
            output(json ? OutputFormat.json(report.json) : report.text)
        case "history":
            let format = command.options["format"] ?? "text"
            guard ["text", "csv", "json"].contains(format) else {
                throw .usage("--format \(format): expected text, csv or json")
            }
            let whole = json || format != "text"
            let limit = try command.count("limit") ?? (whole ? 0 : 20)
            let report = try HistoryReport(paths: paths)
            let entries = report.recent(kind: command.options["kind"], limit: limit)
            switch format {
            case "csv": output(HistoryExport.csv(entries))
            case "json": output(HistoryExport.json(entries))
            default: outputReport(json ? HistoryReport.historyJSON(entries) : HistoryReport.historyText(entries),
                                  asText: !json, report)
                return
            }
            noteUnreadable(report, asText: false)
        case "stats":
            let report = try HistoryReport(paths: paths)
            if let by = command.options["by"] {
                guard let grouping = HistoryBreakdown.Grouping(rawValue: by) else {
                    throw .usage("--by \(by): expected day or task")
                }
                let breakdown = HistoryBreakdown.of(report.entries, by: grouping) { time in
                    Double(utcOffset(Int64(saturating: time.rounded(.down))))
                }
                outputReport(json ? HistoryExport.breakdownJSON(breakdown, grouping: grouping)
                                  : HistoryExport.breakdownText(breakdown, grouping: grouping), asText: !json, report)
                return
            }
            let time = now()
            let offset = Double(utcOffset(Int64(saturating: time.rounded(.down))))
            let figures = report.statistics(now: time, timeZoneOffset: offset)
            outputReport(json ? OutputFormat.json(HistoryReport.statsJSON(figures)) : HistoryReport.statsText(figures),
                         asText: !json, report)
        default:
            throw .usage("unknown command \"\(command.spec.name)\"")
        }
    }
}

extension CommandLineTool {
    /// Prints a history report, then what it left out (`noteUnreadable`).
    private func outputReport(_ text: String, asText: Bool, _ report: HistoryReport) {
        output(text)
        noteUnreadable(report, asText: asText)
    }

    /// Says how many history lines could not be read: as the last line of text for people,
    /// on stderr beside CSV and JSON, which must stay what a parser expects.
    private func noteUnreadable(_ report: HistoryReport, asText: Bool) {
        guard let note = report.unreadableNote else { return }
        if asText { output(note) } else { warning(note) }
    }
}

extension ParsedCommand {
    /// A whole number option of at least 0 (`--limit 10`).
    func count(_ name: String) throws(CLIError) -> Int? {
        guard let text = options[name] else { return nil }
        guard let value = Int(text), value >= 0 else { throw .usage("--\(name) \(text): expected a whole number (0 for all)") }
        return value
    }
}
