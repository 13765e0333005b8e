import Foundation

/// One line of the benchmark table: what was measured, the figure, and its target.
struct Row {
    let name: String
    let measured: String
    let target: String
    /// nil when there is no target to meet (a reference figure).
    let met: Bool?
}

/// Prints the one table of a run, with the machine it ran on, as Markdown.
enum Report {
    static func machine() -> String {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let memKB = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal") }
            .flatMap { $0.split(whereSeparator: { $0 == " " }).dropFirst().first }.flatMap { Int($0) } ?? 0
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let date = ISO8601DateFormatter().string(from: Date())
        return "Machine: \(ProcessInfo.processInfo.activeProcessorCount) CPUs (nproc), \(model), "
            + String(format: "%.1f GiB", Double(memKB) / 1_048_576) + " memory, Linux \(release). Date: \(date). "
            + "Load average (1, 5, 15 min) at the end: \(loadAverage())."
    }

    /// The 1, 5 and 15 minute load averages (/proc/loadavg): how busy the shared machine was.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    static func markdown(_ rows: [Row]) -> String {
        var lines = ["| measure | result | target | met |", "| --- | --- | --- | --- |"]
        for row in rows {
            let verdict = row.met.map { $0 ? "yes" : "**no**" } ?? "–"
            lines.append("| \(row.name) | \(row.measured) | \(row.target) | \(verdict) |")
        }
        return lines.joined(separator: "\n")
    }
}

/// Microseconds with one decimal.
func micros(_ seconds: Double) -> String { String(format: "%.1f µs", seconds * 1e6) }
/// Milliseconds with two decimals.
func millis(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1e3) }
/// Megabytes from kilobytes.
func megabytes(_ kilobytes: Int) -> String { String(format: "%.1f MB", Double(kilobytes) / 1024) }
