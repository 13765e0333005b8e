import DBus
import Foundation
import Testing
import TestSupport

/// Opt-in measurement for the closing note of issue 3 (run only with LIVEACTIVITIES_MEASURE=1):
/// how often the daemon wakes in 60 s with 10 minutes-format activities live, and with none.
/// Wake-ups are the sum of `voluntary_ctxt_switches` over every thread of the daemon
/// (/proc/PID/task/*/status), read before and after the window.
@Suite("Wake-up measurement (opt-in)")
struct WakeupMeasurement {
    static let enabled = ProcessInfo.processInfo.environment["LIVEACTIVITIES_MEASURE"] == "1"

    @Test(.enabled(if: WakeupMeasurement.enabled), .timeLimit(.minutes(5)))
    func tenFastsForOneMinute() throws {
        let f = try DaemonFixture(recorderName: "dunst")
        let c = f.client
        let window = 60.0
        let start = Clock.now
        // Spread over the minute, as fasts started at different times would be (the worst case:
        // each one's shown minute changes at its own moment).
        var ids: [String] = []
        for i in 0..<10 {
            ids.append(try c.start("fasting", attributes: ["protocol": .string("16:8"), "start-time": .int64(start - 600 - Int64(i * 6))]))
        }
        #expect(f.waitForNotifies(10))
        c.idle(3)
        let live = measure(f, seconds: window)
        print("MEASURE 10 fasting activities, \(Int(window)) s: \(live.wakeups) wake-ups (voluntary context switches, "
              + "\(live.threads) threads; \(live.involuntary) involuntary), \(live.notifies) Notify calls received")
        #expect(live.notifies <= 20, "each fast changes its minute once a minute, its percent every 9.6 min")

        for id in ids { try c.end(id, options: ["dismissal": .string("immediate")]) }
        c.idle(3)
        let idle = measure(f, seconds: window)
        print("MEASURE nothing live, \(Int(window)) s: \(idle.wakeups) wake-ups (\(idle.threads) threads; "
              + "\(idle.involuntary) involuntary), \(idle.notifies) Notify calls received")
    }

    /// Context switches of every daemon thread and Notify calls during `seconds`; prints the
    /// voluntary switches of each thread (by name) that woke.
    private func measure(_ f: DaemonFixture, seconds: Double) -> (wakeups: Int, involuntary: Int, threads: Int, notifies: Int) {
        let before = Self.contextSwitches(pid: f.daemon.pid)
        let threadsBefore = Self.perThread(pid: f.daemon.pid)
        let notifiesBefore = f.recorder?.calls.count ?? 0
        Thread.sleep(forTimeInterval: seconds)
        let after = Self.contextSwitches(pid: f.daemon.pid)
        let threadsAfter = Self.perThread(pid: f.daemon.pid)
        let notifies = (f.recorder?.calls.count ?? 0) - notifiesBefore
        let woke = threadsAfter.keys.sorted().compactMap { key -> String? in
            let delta = (threadsAfter[key] ?? 0) - (threadsBefore[key] ?? 0)
            return delta > 0 ? "\(key): \(delta)" : nil
        }
        print("MEASURE per thread: \(woke.joined(separator: ", "))")
        return (after.voluntary - before.voluntary, after.involuntary - before.involuntary, after.threads, notifies)
    }

    /// Voluntary context switches per thread, keyed `name/tid`.
    static func perThread(pid: Int32) -> [String: Int] {
        let taskDirectory = "/proc/\(pid)/task"
        var result: [String: Int] = [:]
        for task in (try? FileManager.default.contentsOfDirectory(atPath: taskDirectory)) ?? [] {
            let name = ((try? String(contentsOfFile: "\(taskDirectory)/\(task)/comm", encoding: .utf8)) ?? "?")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let status = (try? String(contentsOfFile: "\(taskDirectory)/\(task)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches") }
            result["\(name)/\(task)"] = line.flatMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") } ?? 0
        }
        return result
    }

    /// Sums `voluntary_ctxt_switches` and `nonvoluntary_ctxt_switches` over /proc/PID/task/*/status.
    static func contextSwitches(pid: Int32) -> (voluntary: Int, involuntary: Int, threads: Int) {
        let taskDirectory = "/proc/\(pid)/task"
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: taskDirectory)) ?? []
        var voluntary = 0, involuntary = 0
        for task in tasks {
            guard let status = try? String(contentsOfFile: "\(taskDirectory)/\(task)/status", encoding: .utf8) else { continue }
            for line in status.split(separator: "\n") {
                let parts = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, let value = Int(parts[1]) else { continue }
                if parts[0] == "voluntary_ctxt_switches" { voluntary += value }
                if parts[0] == "nonvoluntary_ctxt_switches" { involuntary += value }
            }
        }
        return (voluntary, involuntary, tasks.count)
    }
}
