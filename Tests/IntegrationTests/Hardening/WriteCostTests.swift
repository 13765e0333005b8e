import DBus
import Foundation
import Testing
import TestSupport

/// Bounded cost per write (issue 14, fault 3): a script that starts and ends in a loop, with
/// the default dismissal, neither piles up ended activities nor makes each call write more.
@Suite("Write cost under a Start/End loop", .timeLimit(.minutes(5)))
struct WriteCostTests {
    /// Bytes the process has written so far (`wchar` of /proc/PID/io).
    static func bytesWritten(_ pid: Int32) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return -1 }
        let line = text.split(separator: "\n").first { $0.hasPrefix("wchar:") }
        return line.flatMap { Int($0.dropFirst("wchar:".count).trimmingCharacters(in: .whitespaces)) } ?? -1
    }

    @Test func aThousandStartEndCyclesCostTheSameAtTheEndAsAtTheStart() throws {
        let f = try DaemonFixture(recorderName: nil, recordSignals: false)
        let c = f.client
        func cycles(_ count: Int, from first: Int) throws -> (bytes: Int, seconds: Double) {
            let bytes = Self.bytesWritten(f.daemon.pid)
            let started = Date()
            for n in first..<(first + count) {
                let id = try c.start("generic", state: ["title": .string("cycle \(n)"), "body": .string("a looping script")])
                try c.end(id)
            }
            return (Self.bytesWritten(f.daemon.pid) - bytes, Date().timeIntervalSince(started))
        }
        let early = try cycles(50, from: 0)
        _ = try cycles(900, from: 50)
        let late = try cycles(50, from: 950)

        let rows = try c.list()
        #expect(rows.count <= 32, "ended activities are capped at the default of 32, not \(rows.count)")
        #expect(rows.allSatisfy { $0[2] == "ended" })
        #expect(early.bytes > 0)
        #expect(late.bytes < early.bytes * 3, "bytes written per 50 cycles: \(early.bytes) at first, \(late.bytes) after 950")
        print("write cost of 50 Start/End cycles: first \(early.bytes) B in \(early.seconds) s, "
              + "after 950: \(late.bytes) B in \(late.seconds) s")
    }
}
