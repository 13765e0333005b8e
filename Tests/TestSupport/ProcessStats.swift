import Foundation

/// What /proc says about a running process: resident memory, CPU time and wake-ups, so
/// tests and the benchmark can bound or report the daemon's costs.
public struct ProcessStats: Sendable, Equatable {
    /// VmRSS in kilobytes.
    public let residentKilobytes: Int
    /// utime + stime over all threads, in seconds.
    public let cpuSeconds: Double
    /// Sum of voluntary_ctxt_switches over /proc/<pid>/task/*: how often a thread slept and woke.
    public let voluntarySwitches: Int

    /// Reads the stats of `pid`; nil when the process is gone.
    public static func read(pid: Int32) -> ProcessStats? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let rss = field("VmRSS:", in: status),
              let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let rest = stat[stat.index(after: close)...].split(separator: " ")
        guard rest.count > 13, let utime = Double(rest[11]), let stime = Double(rest[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var switches = 0
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            if let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8),
               let count = field("voluntary_ctxt_switches:", in: text) {
                switches += count
            }
        }
        return ProcessStats(residentKilobytes: rss, cpuSeconds: (utime + stime) / ticks, voluntarySwitches: switches)
    }

    /// The first number after `name` at the start of a line of a /proc status file.
    private static func field(_ name: String, in text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let words = line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" })
            return words.first.flatMap { Int($0) }
        }
        return nil
    }
}
