import Foundation
import DaemonHarness

/// `liveactivity-bench`: measures the real daemon on a private bus and prints one table,
/// each figure beside its target (docs/benchmarks.md). Run it through `scripts/bench`.
let usage = """
Usage: liveactivity-bench [--idle-seconds N] [--throughput-seconds N] [--loop-seconds N] [--tick-seconds N] [--quick] [--only PART] [--push-only]

Starts a private dbus-daemon, a counting notification server, Xvfb + dunst and the
liveactivityd found beside this executable; prints a Markdown table of the results.
  --idle-seconds N        window of each idle measure (default 60)
  --throughput-seconds N  length of each updates/s run (default 5)
  --loop-seconds N        updates of the notify-send loop comparison (default 30)
  --tick-seconds N        window of the Pomodoro side by side with gnome-pomodoro (default 60)
  --quick                 idle 10 s, throughput 2 s, loop 10 s, tick 20 s
  --only PART             one part: startup, idle, round-trips, throughput, loop or tick (to profile it,
                          attach perf or strace to the daemon, printed on stderr, while it runs)
  --push-only             only the push measures (a mosquitto on 127.0.0.1; about 20 s and the idle
                          window, connected and idle)
"""

var idleSeconds = 60.0
var throughputSeconds = 5.0
var loopSeconds = 30
var tickSeconds = 60.0
var only: String?
var pushOnly = false
var arguments = Array(CommandLine.arguments.dropFirst())
while let argument = arguments.first {
    arguments.removeFirst()
    func number() -> Double {
        guard let text = arguments.first, let value = Double(text), value > 0 else {
            FileHandle.standardError.write(Data("\(argument) needs a positive number\n\(usage)\n".utf8))
            exit(2)
        }
        arguments.removeFirst()
        return value
    }
    switch argument {
    case "--idle-seconds": idleSeconds = number()
    case "--throughput-seconds": throughputSeconds = number()
    case "--loop-seconds": loopSeconds = Int(number())
    case "--tick-seconds": tickSeconds = number()
    case "--quick": idleSeconds = 10; throughputSeconds = 2; loopSeconds = 10; tickSeconds = 20
    case "--only":
        guard let part = arguments.first, ["startup", "idle", "round-trips", "throughput", "loop", "tick"].contains(part) else {
            FileHandle.standardError.write(Data("--only needs startup, idle, round-trips, throughput, loop or tick\n\(usage)\n".utf8))
            exit(2)
        }
        arguments.removeFirst()
        only = part
    case "--push-only": pushOnly = true
    case "--help", "-h": print(usage); exit(0)
    default:
        FileHandle.standardError.write(Data("unknown option \(argument)\n\(usage)\n".utf8))
        exit(2)
    }
}

/// Progress goes to stderr so stdout is the table alone.
func progress(_ text: String) { FileHandle.standardError.write(Data("bench: \(text)\n".utf8)) }

/// Whether `part` runs in this invocation.
let selected = only
let runs = { (part: String) in selected == nil || selected == part }

/// `--push-only`: its world is released before the process exits, so its bus directory goes too.
func runPushOnly(idleSeconds: Double) throws {
    let world = try BenchWorld()
    progress("push through mosquitto")
    print(Report.machine())
    print("Build: release. Push measures only.\n")
    print(Report.markdown(try PushBench.measure(world: world, samples: 500, flood: 5000, idleSeconds: idleSeconds)))
}

do {
    if pushOnly {
        try runPushOnly(idleSeconds: idleSeconds)
        exit(0)
    }
    var rows: [Row] = []
    let world = try BenchWorld()
    if runs("startup") {
        progress("exec → name")
        rows += try Startup.measure(world: world, runs: 15)
    }
    try world.daemon.start()
    progress("daemon pid \(world.daemon.pid)")
    if runs("idle") {
        progress("idle, \(Int(idleSeconds)) s twice")
        rows += try IdleCost.measure(world: world, seconds: idleSeconds)
    }
    if runs("round-trips") {
        progress("round trips")
        rows += try ObjectServerFloor.measure(bus: world.bus, count: 5000)
        // 20,000 pairs (about 4 s), as `--only round-trips` takes: with 1,000 the ratio of the medians
        // was 1.29, 1.34 and 1.43 in three full runs.
        rows += try RoundTrip.measure(world: world, count: 20_000)
        progress("CPU per call")
        rows += try CallCost.measure(world: world, count: selected == nil ? 3000 : 20_000)
    }
    if runs("throughput") {
        progress("throughput")
        rows += try Throughput.measure(world: world, seconds: throughputSeconds)
    }
    world.daemon.kill()
    if selected == nil {
        progress("push through mosquitto")
        rows += try PushBench.measure(world: world, samples: 500, flood: 5000, idleSeconds: idleSeconds)
    }
    if runs("loop") {
        progress("notify-send loop against dunst, \(loopSeconds) s twice")
        rows += try NotifySendLoop.measure(seconds: loopSeconds)
    }
    if runs("tick") {
        progress("one Pomodoro side by side with gnome-pomodoro, \(Int(tickSeconds)) s twice")
        rows += try PomodoroSideBySide.measure(seconds: tickSeconds)
    }
    print(Report.machine())
    print("Build: release. Windows: idle \(Int(idleSeconds)) s, throughput \(Int(throughputSeconds)) s, loop \(loopSeconds) s, tick \(Int(tickSeconds)) s.\n")
    print(Report.markdown(rows))
} catch {
    FileHandle.standardError.write(Data("liveactivity-bench: \(error)\n".utf8))
    exit(1)
}
