import Foundation

/// What /proc says about a running process: resident memory, CPU time and wake-ups, so
/// tests and the benchmark can bound or report the daemon's costs.
public struct ProcessStats: Sendable, Equatable {
    /// VmRSS in kilobytes.
    public let residentKilobytes: Int
    /// Private_Clean + Private_Dirty from smaps_rollup: memory no other process shares.
    public let privateKilobytes: Int
    /// Time on a CPU over all live threads, in seconds (schedstat, nanosecond precision;
    /// utime + stime, in clock ticks, when schedstat is not available).
    public let cpuSeconds: Double
    /// Sum of voluntary_ctxt_switches over /proc/<pid>/task/*: how often a thread slept and woke.
    public let voluntarySwitches: Int
    /// Voluntary switches and CPU seconds per thread name (`comm`; "main" for the main thread,
    /// "unnamed" for others that kept the process name), to see which thread woke.
    public let threads: [String: (switches: Int, cpuSeconds: Double)]
    /// The same per thread id, with the thread's name: two readings compare thread by thread,
    /// so a thread that exits between them takes nothing away from the difference.
    public let tasks: [String: (name: String, switches: Int, cpuSeconds: Double)]

    public static func == (lhs: ProcessStats, rhs: ProcessStats) -> Bool {
        lhs.residentKilobytes == rhs.residentKilobytes && lhs.privateKilobytes == rhs.privateKilobytes
            && lhs.cpuSeconds == rhs.cpuSeconds && lhs.voluntarySwitches == rhs.voluntarySwitches
    }

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
        var runNanoseconds: Double?
        var threads: [String: (switches: Int, cpuSeconds: Double)] = [:]
        var perTask: [String: (name: String, switches: Int, cpuSeconds: Double)] = [:]
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let processName = ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        for task in tasks {
            let comm = ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? "?")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let name = task == String(pid) ? "main" : (comm == processName ? "unnamed" : comm)
            var thread = threads[name] ?? (0, 0)
            if let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8),
               let count = field("voluntary_ctxt_switches:", in: text) {
                switches += count
                thread.switches += count
            }
            if let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8),
               let first = text.split(separator: " ").first, let nanoseconds = Double(first) {
                runNanoseconds = (runNanoseconds ?? 0) + nanoseconds
                thread.cpuSeconds += nanoseconds / 1e9
            }
            perTask[task] = (name, thread.switches - (threads[name]?.switches ?? 0),
                             thread.cpuSeconds - (threads[name]?.cpuSeconds ?? 0))
            threads[name] = thread
        }
        let rollup = (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? ""
        let privateKB = (field("Private_Clean:", in: rollup) ?? 0) + (field("Private_Dirty:", in: rollup) ?? 0)
        return ProcessStats(residentKilobytes: rss, privateKilobytes: privateKB,
                            cpuSeconds: runNanoseconds.map { $0 / 1e9 } ?? (utime + stime) / ticks,
                            voluntarySwitches: switches, threads: threads, tasks: perTask)
    }

    /// The CPU time of the main thread of `pid` so far, in nanoseconds (its schedstat); nil when
    /// it is gone. For the daemon that is its event loop: the CPU time the loop spends while a
    /// call waits for its reply is what the call waited behind, and unlike the wall time it
    /// does not grow while the machine is busy with others.
    public static func mainThreadCPUNanoseconds(pid: Int32) -> UInt64? {
        let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/schedstat", encoding: .utf8)
        return text?.split(separator: " ").first.flatMap { UInt64($0) }
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
