import Foundation

/// Starts every child of the tests and the benchmark so that it dies with the test process,
/// however that ends (a crash, SIGKILL, a time limit), and obeys SIGTERM.
///
/// - The child runs under `setpriv --pdeathsig KILL`: the kernel sends it SIGKILL when its
///   parent goes. The kernel ties that signal to the *thread* that spawned the child, not to
///   the process, so every spawn happens on one thread that lives as long as the process
///   (a test's worker thread may exit while the child it started is still in use).
/// - Then `env --default-signal` unblocks every signal and resets its handling before the
///   program starts: a child inherits its spawner's mask, Swift Testing's threads block
///   SIGTERM, and children spawned from them ignored it for good. The spawning thread's own
///   mask is left as it is (it takes no signal the test process relies on elsewhere).
public enum ChildSpawner {
    /// The programs that set the parent-death signal and a clean signal state, each then
    /// executing the next in its place (same pid); without them, children start as they are.
    static let setpriv = executable("/usr/bin/setpriv")
    static let env = executable("/usr/bin/env")

    private static func executable(_ path: String) -> String? {
        FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Points `process` at `executable` (wrapped in setpriv and env) with `arguments`.
    static func configure(_ process: Process, executable: String, arguments: [String]) {
        var command = [ChildProcess.resolve(executable)] + arguments
        if let env { command = [env, "--default-signal"] + command }
        if let setpriv { command = [setpriv, "--pdeathsig", "KILL", "--"] + command }
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
    }

    /// Runs `process.run()` on the spawning thread and waits for it; throws what it threw.
    static func run(_ process: Process) throws {
        let job = SpawnJob(process)
        SpawnThread.shared.submit(job)
        job.done.wait()
        if let error = job.error { throw error }
    }
}

/// One spawn handed to the spawning thread, and its outcome.
private final class SpawnJob: @unchecked Sendable {
    let process: Process
    let done = DispatchSemaphore(value: 0)
    var error: Error?
    init(_ process: Process) { self.process = process }
}

/// The thread that spawns every child: started once, never exits (its signal mask is left as
/// it is: see `ChildSpawner`).
private final class SpawnThread: @unchecked Sendable {
    static let shared = SpawnThread()

    private let lock = NSLock()
    private let available = DispatchSemaphore(value: 0)
    private var queue: [SpawnJob] = []

    private init() {
        let thread = Thread { [self] in
            while true {
                available.wait()
                lock.lock()
                let job = queue.removeFirst()
                lock.unlock()
                do { try job.process.run() } catch { job.error = error }
                job.done.signal()
            }
        }
        thread.name = "child spawner"
        thread.start()
    }

    func submit(_ job: SpawnJob) {
        lock.lock()
        queue.append(job)
        lock.unlock()
        available.signal()
    }
}
