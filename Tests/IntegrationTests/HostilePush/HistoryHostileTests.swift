import ActivityModel
import DBus
import Foundation
import Testing
import TestSupport

/// Issue 18, point 5: a history that cannot hurt. A history ten times the rotation threshold
/// rotates without stalling a call or keeping memory; lines that are not usable entries (undecodable, `ended-at` -1e300)
/// are kept verbatim aside and never crash an End; an End whose history line cannot be written
/// is refused; a symlink at the history's place is never written through.
@Suite("History that cannot hurt", .timeLimit(.minutes(5)), .serialized)
struct HistoryHostileTests {
    /// `count` entries spread over the last year, each with an attribute of `padding` bytes.
    static func history(count: Int, padding: Int, now: Double) throws -> String {
        let template = try HistoryEntry(id: "IDX", kind: "generic", reason: .ended, startedAt: 1_000_000_000, endedAt: 1_000_001_500,
                                        activeSeconds: 1_500, attributes: ["note": .string(String(repeating: "p", count: padding))]).jsonLine()
        let parts = template.components(separatedBy: "1000001500")
        var text = ""
        text.reserveCapacity(count * (template.utf8.count + 8))
        for n in 0..<count {
            let endedAt = Int(now) - 365 * 86_400 + n * (365 * 86_400 / count)
            text += parts.joined(separator: String(endedAt)).replacingOccurrences(of: "IDX", with: "h\(n)") + "\n"
        }
        return text
    }

    /// The daemon's rotation threshold, `HistoryFile.rotateAfterBytes` (not visible from here).
    static let rotationThreshold = 1 << 20

    static func size(_ url: URL) -> Int { (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? -1 }

    static func asideFiles(_ f: DaemonFixture, _ tag: String) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: f.daemon.stateDirectory, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.lastPathComponent.hasPrefix("history.jsonl.\(tag)-") }
    }

    /// The file is 10 MB, ten times the 1 MB threshold (`HistoryFile.rotateAfterBytes`): a
    /// rotation that held it in memory would grow the daemon by at least its size, so RSS may
    /// grow by half of it at most. (It was 51 MB until issue 20: 25 s of CPU in a debug build
    /// for the same proof; the daemon grew by 1 MB then, as now.)
    @Test func aHistoryTenTimesTheThresholdRotatesWithoutStallingACallOrKeepingMemory() throws {
        let f = try DaemonFixture(recorderName: nil)
        let text = try Self.history(count: 52_000, padding: 60, now: Date().timeIntervalSince1970)
        let fileMegabytes = text.utf8.count >> 20
        #expect(fileMegabytes >= 10 * (Self.rotationThreshold >> 20), "\(fileMegabytes) MB")
        try FileManager.default.createDirectory(at: f.daemon.stateDirectory, withIntermediateDirectories: true)
        try text.write(to: f.daemon.historyFile, atomically: true, encoding: .utf8)
        let id = try f.client.start("generic", state: ["title": .string("last")])
        let before = try #require(ProcessStats.read(pid: f.daemon.pid))

        try f.client.end(id)
        // What a Ping waited behind, measured as the loop thread's CPU time between its sending
        // and its reply: a rotation on the loop (issue 18) costs seconds of it; waiting for a
        // CPU on a busy machine costs none, so the bounds hold under load (wall times are printed).
        var latencies: [Double] = []
        var loopMilliseconds: [Double] = []
        let deadline = Date().addingTimeInterval(120)
        while Self.size(f.daemon.historyFile) > Self.rotationThreshold && Date() < deadline {
            let started = DispatchTime.now().uptimeNanoseconds
            let cpuBefore = ProcessStats.mainThreadCPUNanoseconds(pid: f.daemon.pid)
            _ = try f.client.connection.callMethod(destination: TestClient.busName, path: "/", interface: "org.freedesktop.DBus.Peer",
                                                   member: "Ping", arguments: [], timeoutMilliseconds: 30_000)
            let cpuAfter = ProcessStats.mainThreadCPUNanoseconds(pid: f.daemon.pid)
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
            if let cpuBefore, let cpuAfter { loopMilliseconds.append(Double(cpuAfter - cpuBefore) / 1e6) }
            usleep(20_000)  // pacing, not a wait: a Ping every 20 ms samples the rotation without loading the machine
        }
        let after = try #require(ProcessStats.read(pid: f.daemon.pid))
        let sorted = latencies.sorted()
        let cpu = loopMilliseconds.sorted()
        func p99(_ values: [Double]) -> Double { values.isEmpty ? .infinity : values[min(values.count - 1, Int(Double(values.count) * 0.99))] }
        let grown = (after.residentKilobytes - before.residentKilobytes) / 1024
        print("history rotation: \(text.utf8.count / 1_000_000) MB -> \(Self.size(f.daemon.historyFile)) bytes; \(latencies.count) pings, "
              + "wall p99 \(p99(sorted)) ms, worst \(sorted.last ?? 0) ms; loop CPU per Ping p99 \(p99(cpu)) ms, worst \(cpu.last ?? 0) ms; "
              + "RSS \(before.residentKilobytes / 1024) MB -> \(after.residentKilobytes / 1024) MB")
        #expect(Self.size(f.daemon.historyFile) <= Self.rotationThreshold, "rotated")
        #expect(latencies.count >= 5, "pings were answered during the rotation: \(latencies.count)")
        #expect(loopMilliseconds.count == latencies.count, "the loop thread's schedstat was readable")
        // The rotation's last step runs on the loop (5–13 ms measured); the rest on its own thread.
        #expect(p99(cpu) < 20, "the loop's CPU time while a Ping waited, p99: \(p99(cpu)) ms")
        #expect((cpu.last ?? .infinity) < 200, "the most a Ping waited behind: \(cpu.last ?? .infinity) ms of the loop's CPU")
        #expect(grown < fileMegabytes / 2, "RSS grew by \(grown) MB (\(before.residentKilobytes / 1024) -> \(after.residentKilobytes / 1024))")
        #expect(try f.client.get(id)["status"]?.string == "ended")
        let step = f.daemon.log().split(separator: "\n").first { $0.contains("the last step took") } ?? ""
        print("history rotation: \(step)")
    }

    @Test func unusableLinesAreKeptVerbatimAsideAndNeverCrashAnEnd() throws {
        let f = try DaemonFixture(recorderName: nil)
        let now = Date().timeIntervalSince1970
        let bad = [#"{"active-seconds":10,"attributes":{},"ended-at":-1e300,"id":"evil","kind":"generic","reason":"ended","started-at":0}"#,
                   "this is not json \u{1}",
                   #"{"id": "half"#]
        let good = try HistoryEntry(id: "old", kind: "focus", reason: .completed, startedAt: now - 200 * 86_400,
                                    endedAt: now - 200 * 86_400 + 1_500, activeSeconds: 1_500).jsonLine()
        try FileManager.default.createDirectory(at: f.daemon.stateDirectory, withIntermediateDirectories: true)
        try (bad[0] + "\n" + good + "\n" + bad[1] + "\n" + bad[2] + "\n").write(to: f.daemon.historyFile, atomically: true, encoding: .utf8)

        let listing = try f.cli(["history"])
        #expect(listing.status == 0, "liveactivity history skips the out-of-range line: \(listing.stderr)")
        let first = try f.client.start("generic", state: ["title": .string("one")])
        try f.client.end(first)
        let rotated = waitUntil(timeout: 30) {
            !((try? String(contentsOf: f.daemon.historyFile, encoding: .utf8))?.contains("-1e300") ?? true)
        }
        #expect(rotated, "the rotation the End started took the unusable lines out")
        #expect(!Self.asideFiles(f, "corrupt").isEmpty, "the unusable lines are set aside")
        #expect(f.daemon.isRunning, "an End with an out-of-range line in the history does not crash the daemon")
        let aside = try String(contentsOf: try #require(Self.asideFiles(f, "corrupt").first), encoding: .utf8)
        #expect(aside == bad.joined(separator: "\n") + "\n", "kept verbatim: \(aside)")
        let second = try f.client.start("generic", state: ["title": .string("two")])
        try f.client.end(second)
        #expect(f.daemon.isRunning)
        let history = try String(contentsOf: f.daemon.historyFile, encoding: .utf8)
        #expect(!history.contains("-1e300") && history.contains(first) && history.contains(second), "\(history)")
        let stats = try f.cli(["stats", "--json"])
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(stats.stdout.contains("\"completed\" : 1") || stats.stdout.contains("\"completed\":1"), "the old entry was folded: \(stats.stdout)")
    }

    @Test func anEndWhoseHistoryLineCannotBeWrittenIsRefused() throws {
        let f = try DaemonFixture(recorderName: nil)
        let id = try f.client.start("generic", state: ["title": .string("kept")])
        // A directory where the history file belongs: every append fails (EISDIR).
        try FileManager.default.createDirectory(at: f.daemon.historyFile, withIntermediateDirectories: true)
        let refusal = f.client.error { try f.client.end(id) }
        #expect(refusal?.name == FullDiskTests.storageFailed, "\(String(describing: refusal))")
        #expect(try f.client.get(id)["status"]?.string == "active", "a refused End changed nothing")
        f.daemon.kill()
        try f.daemon.start()
        #expect(try f.client.get(id)["status"]?.string == "active", "not after a restart either")
        try FileManager.default.removeItem(at: f.daemon.historyFile)
        try f.client.end(id)
        #expect(try String(contentsOf: f.daemon.historyFile, encoding: .utf8).contains("\"id\":\"\(id)\""))
    }

    @Test func aSymlinkAtTheHistoryIsNeverWrittenThrough() throws {
        let f = try DaemonFixture(recorderName: nil)
        let victim = f.daemon.home.url.appendingPathComponent("precious.txt")
        try "precious\n".write(to: victim, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: f.daemon.stateDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: f.daemon.historyFile, withDestinationURL: victim)
        let id = try f.client.start("generic", state: ["title": .string("t")])
        try f.client.end(id)
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n", "the link's target is untouched")
        let attributes = try FileManager.default.attributesOfItem(atPath: f.daemon.historyFile.path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular, "a new history file")
        #expect(try String(contentsOf: f.daemon.historyFile, encoding: .utf8).contains("\"id\":\"\(id)\""))
        #expect(Self.asideFiles(f, "symlink").count == 1, "the link is moved aside")
    }
}
