import DBus
import Foundation
import DaemonHarness

/// Time from exec of `liveactivityd` to its bus name being owned, seen as the bus's
/// NameOwnerChanged signal on a watching connection.
enum Startup {
    static func measure(world: BenchWorld, runs: Int) throws -> [Row] {
        let loop = try EventLoop()
        let watcher = try DBusConnection(address: world.bus.address)
        watcher.attach(to: loop)
        try watcher.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(BenchClient.busName)'")
        var owned = false
        watcher.addMessageHandler { message in
            if message.member == "NameOwnerChanged", let arguments = try? message.arguments(), arguments.count == 3 {
                owned = !(arguments[2].string ?? "").isEmpty
            }
            return false
        }
        var samples: [Double] = []
        for _ in 0..<runs {
            let started = monotonicSeconds()
            let child = try ChildProcess(BuiltProducts.path(of: "liveactivityd"), [], environment: world.daemon.environment,
                                         output: .discard)
            guard loop.run(until: { owned }, timeout: 10) else { throw BenchError.setup("the daemon did not take its name") }
            samples.append(monotonicSeconds() - started)
            child.stop()
            _ = loop.run(until: { !owned }, timeout: 10)
        }
        let median = percentile(samples, 0.5)
        return [Row(name: "exec → bus name acquired (median of \(runs))",
                    measured: millis(median) + " (min \(millis(samples.min() ?? 0)), max \(millis(samples.max() ?? 0)))",
                    target: "< 50 ms", met: median < 0.050)]
    }
}
