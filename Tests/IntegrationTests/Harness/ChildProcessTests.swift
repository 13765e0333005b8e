import Foundation
import Testing
import TestSupport

/// Children of the tests must end with the test process and obey SIGTERM: before issue 20
/// they inherited Swift Testing's blocked SIGTERM and outlived a crashed test process.
@Suite("Children the tests start", .timeLimit(.minutes(5)))
struct ChildProcessTests {
    /// The signals a process blocks, from /proc (a hex mask).
    static func blockedSignals(of pid: Int32) throws -> UInt64 {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") })
        return try #require(UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16))
    }

    @Test func aChildBlocksNoSignalAndEndsOnSIGTERM() throws {
        let child = try ChildProcess("sleep", ["600"])
        defer { child.stop() }
        // setpriv executes sleep in its place: wait for that, so the mask read is sleep's own.
        #expect(waitUntil(timeout: 5) { (try? String(contentsOfFile: "/proc/\(child.pid)/comm", encoding: .utf8)) == "sleep\n" })
        #expect(try Self.blockedSignals(of: child.pid) == 0, "the child blocks no signal")
        child.send(SIGTERM)
        child.process.waitUntilExit()
        #expect(child.process.terminationReason == .uncaughtSignal)
        #expect(child.process.terminationStatus == SIGTERM)
    }

    @Test func aChildIsKilledWhenItsParentDies() throws {
        // A parent of our own (bash, spawned like every child) starts a grandchild the same way
        // a test does (setpriv --pdeathsig KILL), prints its pid, and is killed.
        let parent = try ChildProcess("/bin/bash", ["-c", "setpriv --pdeathsig KILL -- sleep 600 & echo $!; wait"])
        let line = try #require(readLine(from: parent.standardOutput))
        let grandchild = try #require(Int32(line))
        // Only once setpriv has executed sleep is the parent-death signal set (bash prints the
        // pid before that). A grandchild that outlived bash would also keep Foundation's
        // watch on bash open, so `stop()` would wait for it.
        #expect(waitUntil(timeout: 5) { (try? String(contentsOfFile: "/proc/\(grandchild)/comm", encoding: .utf8)) == "sleep\n" })
        parent.stop()
        #expect(waitUntil(timeout: 5) { kill(grandchild, 0) != 0 }, "the grandchild died with its parent")
    }
}
