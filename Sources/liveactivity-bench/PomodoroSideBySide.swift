import DBus
import Foundation
import DaemonHarness

/// One 25-minute Pomodoro, side by side: GNOME's own timer (gnome-pomodoro, Debian 12's
/// `gnome-shell-pomodoro`, run as its background service on a private bus and Xvfb) against
/// the daemon keeping a `focus` card with a seconds countdown current on dunst. Each gets its
/// own bus and dunst; over the same window: wake-ups, CPU (schedstat) and RSS, and for the
/// daemon its CPU per tick (the card replaced once a second) and whether its cards keep to
/// their seconds (each Notify's time against the first card's, plus one second a card).
enum PomodoroSideBySide {
    static func measure(seconds: Double) throws -> [Row] {
        let window = "\(Int(seconds)) s"
        var rows: [Row] = []
        let peer = try peerCost(seconds: seconds)
        if let peer {
            rows.append(Row(name: "gnome-pomodoro 0.22, one Pomodoro, \(window): wake-ups / CPU / RSS",
                            measured: "\(peer.cost.wakeups) / \(millis(peer.cost.cpu)) / \(megabytes(peer.rss))",
                            target: "reference", met: nil))
        } else {
            rows.append(Row(name: "gnome-pomodoro, one Pomodoro", measured: "not installed (apt-get install gnome-shell-pomodoro)",
                            target: "reference", met: nil))
        }
        let ours = try daemonCost(seconds: seconds)
        let perTick = ours.cost.cpu / Double(max(1, ours.ticks))
        let byThread = ours.cost.threads.filter { $0.cpu > 0 }.sorted { $0.cpu > $1.cpu }
            .map { "\(label($0.name)) \(millis($0.cpu / Double(max(1, ours.ticks))))" }.joined(separator: ", ")
        rows += [
            Row(name: "liveactivityd, one Pomodoro (focus, m:ss card on dunst), \(window): wake-ups / CPU / RSS",
                measured: "\(ours.cost.wakeups) (\(ours.cost.wakeupsByThread)) / \(millis(ours.cost.cpu)) / \(megabytes(ours.rss))",
                target: "reference", met: nil),
            Row(name: "liveactivityd CPU per tick, all threads (\(ours.ticks) ticks, \(ours.notifies) cards replaced)",
                measured: millis(perTick) + " (" + byThread + ")", target: "≤ 0.25 ms", met: perTick <= 0.000_25),
            Row(name: "liveactivityd cards on their ticks, \(window): cards, largest offset from the first card's second",
                measured: "\(ours.notifies) cards, \(millis(ours.largestOffset))",
                target: "one a second, offsets ≤ 10 ms", met: ours.notifies >= Int(seconds) && ours.largestOffset <= 0.010),
        ]
        if let peer {
            rows.append(Row(name: "One Pomodoro, \(window) on dunst: CPU of liveactivityd / gnome-pomodoro",
                            measured: "\(millis(ours.cost.cpu)) / \(millis(peer.cost.cpu))" +
                                String(format: " (%.2f×)", ours.cost.cpu / max(peer.cost.cpu, 1e-9)),
                            target: "ours below the peer's", met: ours.cost.cpu < peer.cost.cpu))
        }
        return rows
    }

    /// How far card `i` strays from the first card's time plus `i` seconds, the largest over the
    /// window: a card late by the server's answer, or a tick skipped, shows here (infinity: no card).
    private static func largestOffset(_ times: [Double]) -> Double {
        guard let first = times.first else { return .infinity }
        return times.enumerated().map { abs($0.element - first - Double($0.offset)) }.max() ?? .infinity
    }

    private static func label(_ name: String) -> String { name == "main" ? "event loop" : name == "unnamed" ? "card thread" : name }

    /// The daemon with dunst: a focus activity started, 2 s to settle, then the window.
    private static func daemonCost(seconds: Double) throws -> (cost: Cost, rss: Int, ticks: Int, notifies: Int, largestOffset: Double) {
        let bus = try PrivateBus()
        let dunst = try Dunst(bus: bus)
        defer { dunst.stop() }
        let daemon = try DaemonProcess(bus: bus)
        defer { daemon.kill() }
        let loop = try EventLoop()
        let connection = try DBusConnection(address: bus.address)
        connection.attach(to: loop)
        try connection.addMatch("type='signal',member='PropertiesChanged',path='\(BenchClient.path)/activity/pomodoro'")
        try connection.addMatch("type='method_call',interface='org.freedesktop.Notifications',member='Notify',eavesdrop=true")
        var changes = 0, notifies = 0
        var notifyTimes: [Double] = []
        connection.addMessageHandler { message in
            if message.member == "PropertiesChanged" { changes += 1 }
            guard message.member == "Notify" else { return false }
            notifies += 1
            notifyTimes.append(monotonicSeconds())
            // Handled: an eavesdropped call left unhandled gets libdbus's UnknownMethod reply,
            // which reaches the caller before the server's and fails its Notify.
            return true
        }
        _ = try connection.callMethod(destination: BenchClient.busName, path: BenchClient.path, interface: BenchClient.interface,
                                      member: "Start", arguments: [
                                        .string("focus"), .vardict(["session-type": .string("Pomodoro")]),
                                        .vardict([:]), .vardict(["id": .string("pomodoro")])])
        _ = loop.run(until: { false }, timeout: 2)
        guard let before = ProcessStats.read(pid: daemon.pid) else { throw BenchError.setup("daemon gone") }
        changes = 0
        notifies = 0
        notifyTimes = []
        _ = loop.run(until: { false }, timeout: seconds)
        guard let after = ProcessStats.read(pid: daemon.pid) else { throw BenchError.setup("daemon gone") }
        return (Cost(before: before, after: after), after.residentKilobytes, changes, notifies, largestOffset(notifyTimes))
    }

    /// gnome-pomodoro's service with a Pomodoro started (`--start` goes to the running
    /// instance), 2 s to settle, then the window; nil when it is not installed.
    private static func peerCost(seconds: Double) throws -> (cost: Cost, rss: Int)? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gnome-pomodoro") else { return nil }
        let bus = try PrivateBus()
        let dunst = try Dunst(bus: bus)
        defer { dunst.stop() }
        let home = try TemporaryDirectory(prefix: "liveactivities-pomodoro")
        let environment = bus.environment([
            "DISPLAY": dunst.display, "HOME": home.path, "GSETTINGS_BACKEND": "memory",
            "XDG_CONFIG_HOME": home.subdirectory("config").path, "XDG_DATA_HOME": home.subdirectory("data").path,
            "XDG_CACHE_HOME": home.subdirectory("cache").path, "XDG_RUNTIME_DIR": home.subdirectory("run").path,
        ])
        let service = try ChildProcess("/usr/bin/gnome-pomodoro", ["--no-default-window"], environment: environment, output: .discard)
        defer { service.stop() }
        guard bus.waitForOwner("org.gnome.Pomodoro", timeout: 15) else { throw BenchError.setup("gnome-pomodoro took no bus name") }
        let started = try runCommand("/usr/bin/gnome-pomodoro", ["--start"], environment: environment, timeout: 15)
        guard started.status == 0 else { throw BenchError.setup("gnome-pomodoro --start failed: \(started.stderr)") }
        Thread.sleep(forTimeInterval: 2)
        guard let before = ProcessStats.read(pid: service.pid) else { throw BenchError.setup("gnome-pomodoro gone") }
        Thread.sleep(forTimeInterval: seconds)
        guard let after = ProcessStats.read(pid: service.pid) else { throw BenchError.setup("gnome-pomodoro gone") }
        return (Cost(before: before, after: after), after.residentKilobytes)
    }
}
