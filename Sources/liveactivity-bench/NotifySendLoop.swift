import DBus
import Foundation
import DaemonHarness

/// The way users keep a card up to date today, a shell loop of `notify-send -r` once a
/// second, against the daemon keeping a live timer card up to date by itself; both on real
/// dunst. Compares the CPU each spends per card update.
enum NotifySendLoop {
    static func measure(seconds: Int) throws -> [Row] {
        let bus = try PrivateBus()
        let dunst = try Dunst(bus: bus)
        defer { dunst.stop() }
        let loopCPU = try shellLoopCPU(bus: bus, display: dunst.display, updates: seconds)
        let daemon = try DaemonProcess(bus: bus)
        defer { daemon.kill() }
        let (cost, updates) = try daemonTimerCost(bus: bus, daemon: daemon, seconds: Double(seconds))
        let loopPerUpdate = loopCPU / Double(seconds + 1)
        let ourPerUpdate = cost.cpu / Double(max(1, updates))
        let byThread = cost.threads.filter { $0.cpu > 0 }.sorted { $0.cpu > $1.cpu }
            .map { "\($0.name == "main" ? "event loop" : $0.name == "unnamed" ? "card thread" : $0.name) \(millis($0.cpu / Double(max(1, updates))))" }
            .joined(separator: ", ")
        let ratio = loopPerUpdate / ourPerUpdate
        return [
            Row(name: "`notify-send -r` loop, CPU per card update (\(seconds + 1) updates)", measured: millis(loopPerUpdate),
                target: "reference", met: nil),
            Row(name: "liveactivityd live timer card, CPU per card update (\(updates) updates)",
                measured: millis(ourPerUpdate) + String(format: " (%.0f× less; ", ratio) + byThread + ")",
                target: "≥ 50× less than the loop", met: ratio >= 50),
        ]
    }

    /// CPU seconds of `bash` and its `notify-send` children over `updates` + 1 notifications.
    private static func shellLoopCPU(bus: PrivateBus, display: String, updates: Int) throws -> Double {
        let script = """
        id=$(notify-send -p "Timer" "0 s")
        for i in $(seq 1 \(updates)); do notify-send -r "$id" "Timer" "$i s"; sleep 1; done
        """
        let before = childrenCPU()
        let result = try runCommand("/bin/bash", ["-c", script], environment: bus.environment(["DISPLAY": display]),
                                    timeout: Double(updates) + 60)
        guard result.status == 0 else { throw BenchError.setup("notify-send loop failed: \(result.stderr)") }
        return childrenCPU() - before
    }

    /// The daemon's CPU while it re-renders one live timer card once a second for `seconds`,
    /// and how many times the card changed (PropertiesChanged of the activity).
    private static func daemonTimerCost(bus: PrivateBus, daemon: DaemonProcess, seconds: Double) throws -> (Cost, Int) {
        let loop = try EventLoop()
        let connection = try DBusConnection(address: bus.address)
        connection.attach(to: loop)
        try connection.addMatch("type='signal',member='PropertiesChanged',path='\(BenchClient.path)/activity/timer'")
        var changes = 0
        connection.addMessageHandler { message in
            if message.member == "PropertiesChanged" { changes += 1 }
            return false
        }
        let now = Int64(Date().timeIntervalSince1970)
        _ = try connection.callMethod(destination: BenchClient.busName, path: BenchClient.path, interface: BenchClient.interface,
                                      member: "Start", arguments: [
                                        .string("generic"), .vardict(["timer-start": .int64(now), "timer-end": .int64(now + 3600)]),
                                        .vardict(["title": .string("Timer")]), .vardict(["id": .string("timer")])])
        _ = loop.run(until: { false }, timeout: 2)
        guard let before = ProcessStats.read(pid: daemon.pid) else { throw BenchError.setup("daemon gone") }
        changes = 0
        _ = loop.run(until: { false }, timeout: seconds)
        guard let after = ProcessStats.read(pid: daemon.pid) else { throw BenchError.setup("daemon gone") }
        return (Cost(before: before, after: after), changes)
    }

    /// CPU seconds of every child this process has reaped (getrusage RUSAGE_CHILDREN).
    private static func childrenCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
