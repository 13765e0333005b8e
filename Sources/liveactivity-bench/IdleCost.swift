import DBus
import Foundation

/// What the daemon costs while nobody calls it: wake-ups and CPU over a window with nothing
/// live and with 10 fasting activities (an h:mm format: one tick a minute serves them all),
/// and its resident memory idle and with 32 activities.
enum IdleCost {
    static func measure(world: BenchWorld, seconds: Double) throws -> [Row] {
        Thread.sleep(forTimeInterval: 2)
        let idle = try world.stats()
        let idleRSS = idle.residentKilobytes
        let empty = try world.cost { Thread.sleep(forTimeInterval: seconds) }

        let client = try world.client()
        let fasts = try (0..<10).map { index -> String in
            let id = "fast_\(index)"
            try client.start("fasting", attributes: ["protocol": .string(["16:8", "18:6", "20:4", "OMAD"][index % 4]),
                                                     "start-time": .int64(Int64(Date().timeIntervalSince1970) - Int64(index * 600))],
                             id: id)
            return id
        }
        Thread.sleep(forTimeInterval: 2)
        let notifiesBefore = world.server.notifyCount
        let fasting = try world.cost { Thread.sleep(forTimeInterval: seconds) }
        let notifies = world.server.notifyCount - notifiesBefore
        for id in fasts { try client.end(id) }

        let minutes = seconds / 60
        let allowed = Int((2 * minutes).rounded(.up))
        let window = "\(Int(seconds)) s"
        return [
            Row(name: "RSS idle (nothing live)", measured: megabytes(idleRSS) + " (private: \(megabytes(idle.privateKilobytes)))",
                target: "≤ 16 MB", met: idleRSS <= 16 * 1024),
            Row(name: "Wake-ups (all threads), \(window) idle, nothing live", measured: "\(empty.wakeups)", target: "0",
                met: empty.wakeups == 0),
            Row(name: "CPU, \(window) idle, nothing live", measured: millis(empty.cpu), target: "reference", met: nil),
            Row(name: "Event-loop wake-ups, \(window), 10 fasting activities live (h:mm cards)",
                measured: "\(loopWakeups(fasting))", target: "≤ 2 per minute (≤ \(allowed) here)",
                met: loopWakeups(fasting) <= allowed),
            Row(name: "All threads' wake-ups, same window (incl. the Notify calls)",
                measured: "\(fasting.wakeups) (\(fasting.wakeupsByThread))", target: "reference", met: nil),
            Row(name: "CPU, \(window), 10 fasting activities live", measured: millis(fasting.cpu), target: "reference", met: nil),
            // Each fast's card changes with its minute, and its percent every 9.6 minutes at most.
            Row(name: "Notify calls, same window", measured: "\(notifies)", target: "≤ 2 per activity per minute (≤ \(10 * allowed) here)",
                met: notifies <= 10 * allowed),
        ]
    }

    /// Voluntary switches of the main thread, which runs the event loop and its one timer.
    private static func loopWakeups(_ cost: Cost) -> Int {
        cost.threads.first { $0.name == "main" }?.switches ?? cost.wakeups
    }

    /// RSS with 32 live activities (started by the throughput measure, before its floods).
    static func loadedRSS(world: BenchWorld) throws -> Row {
        let stats = try world.stats()
        let rss = stats.residentKilobytes
        return Row(name: "RSS with 32 live activities",
                   measured: megabytes(rss) + " (private: \(megabytes(stats.privateKilobytes)))",
                   target: "≤ 24 MB", met: rss <= 24 * 1024)
    }
}
