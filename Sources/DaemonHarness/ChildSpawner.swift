import Foundation

/// Starts every child of the tests and the benchmark so that it dies with the test process,
/// however that ends (a crash, SIGKILL, a time limit), and obeys SIGTERM.
///
/// - The child runs under `setpriv --pdeathsig KILL`: the kernel sends it SIGKILL when its
///   parent goes. The kernel ties that signal to the *thread* that spawned the child, not to
///   the process, so every spawn happens on one thread that lives as long as the process
///   (a test's worker thread may exit while the child it started is still in use).
/// - That thread blocks no signal, and a spawned child inherits its spawner's mask: Swift
///   Testing's threads block SIGTERM, and children spawned from them ignored it for good.
public enum ChildSpawner {
    /// The program that sets the parent-death signal, then executes the child in its place
    /// (same pid); without it, children are spawned as they are.
    static let setpriv: String? = FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") ? "/usr/bin/setpriv" : nil

    /// Points `process` at `executable` (wrapped in setpriv) with `arguments`.
    static func configure(_ process: Process, executable: String, arguments: [String]) {
        let resolved = ChildProcess.resolve(executable)
        if let setpriv {
            process.executableURL = URL(fileURLWithPath: setpriv)
            process.arguments = ["--pdeathsig", "KILL", "--", resolved] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: resolved)
            process.arguments = arguments
        }
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

/// The thread that spawns every child: started once, never exits, blocks no signal.
private final class SpawnThread: @unchecked Sendable {
    static let shared = SpawnThread()

    private let lock = NSLock()
    private let available = DispatchSemaphore(value: 0)
    private var queue: [SpawnJob] = []

    private init() {
        let thread = Thread { [self] in
            var nothing = sigset_t()
            sigemptyset(&nothing)
            pthread_sigmask(SIG_SETMASK, &nothing, nil)
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
