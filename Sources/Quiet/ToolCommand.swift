import Glibc

/// Runs one of the desktop's own control tools (`gsettings`, `dunstctl`, `makoctl`,
/// `swaync-client`) and returns what it printed. Exists because those tools are the stable,
/// documented way to drive each server's Do Not Disturb, and because a hung server must never
/// hang the daemon: every run has a deadline, after which the tool is killed. Runs on the
/// Do Not Disturb worker thread only, never on the thread that answers the bus.
package struct ToolCommand {
    let executable: String
    let arguments: [String]
    /// Seconds before the tool is killed and the run fails.
    var timeout = 5.0

    init(_ executable: String, _ arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }

    /// Why a run failed.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the tool with the daemon's environment; returns its standard output, trimmed.
    /// A tool that cannot start, exits non-zero or outlives `timeout` throws.
    func run() throws(Failure) -> String {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
        // Neither end leaks into other children (the child's stdout is a dup2, which is kept).
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, executable, &actions, nil, argv, environ)
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard spawned == 0 else {
            throw Failure(description: "\(executable) could not be started: \(String(cString: strerror(spawned)))")
        }
        let started = Self.monotonicSeconds()
        var output = readAll(pipeEnds[0], pid: pid)
        var status: Int32 = 0
        // A tool that closed its output but does not exit is killed at the same deadline.
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped < 0 && errno != EINTR) { break }
            if Self.monotonicSeconds() - started > timeout {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                output = nil
                break
            }
            usleep(10_000)
        }
        guard let output else { throw Failure(description: "\(commandLine) did not finish within \(Int(timeout)) s; killed") }
        let exited = (status & 0x7f) == 0
        let code = (status >> 8) & 0xff
        guard exited && code == 0 else { throw Failure(description: "\(commandLine) failed (status \(exited ? code : -1))") }
        return Self.trimmed(output)
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    var commandLine: String { ([executable] + arguments).joined(separator: " ") }

    /// Reads until end of file, or kills the tool at the deadline (then nil).
    private func readAll(_ fd: Int32, pid: pid_t) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let end = Double(deadline.tv_sec) + Double(deadline.tv_nsec) / 1e9 + timeout
        while true {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let left = end - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
            guard left > 0 else {
                kill(pid, SIGKILL)
                return nil
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(left * 1000) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return String(decoding: bytes, as: UTF8.self) }
            if bytes.count < 65_536 { bytes.append(contentsOf: buffer[..<count]) }
        }
    }

    private static func trimmed(_ text: String) -> String {
        var result = Substring(text)
        while let last = result.last, last.isWhitespace { result.removeLast() }
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        return String(result)
    }
}
