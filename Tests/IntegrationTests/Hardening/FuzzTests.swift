import DBus
import Foundation
import Testing
import TestSupport

/// Hostile input: thousands of generated calls (seeded, so a failure replays) to every method
/// and property the daemon has and to ones it does not. Each must be answered, the daemon
/// must stay up with bounded memory, and its state file must still match what it serves.
@Suite("Hostile input", .timeLimit(.minutes(5)))
struct FuzzTests {
    static let messageCount = 10_000
    static let batchSize = 100
    static let warmUpMessages = 1_000

    /// Error names a refusal may carry: the daemon's own and the standard "you asked wrong" ones.
    static func isNamedRefusal(_ name: String) -> Bool {
        name.hasPrefix("io.github.liveactivities.LiveActivities1.Error.")
            || ["org.freedesktop.DBus.Error.InvalidArgs", "org.freedesktop.DBus.Error.UnknownMethod",
                "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownInterface",
                "org.freedesktop.DBus.Error.UnknownProperty", "org.freedesktop.DBus.Error.PropertyReadOnly"].contains(name)
    }

    @Test func everyHostileCallIsAnsweredAndTheDaemonStaysWell() throws {
        let f = try DaemonFixture(recorderName: "dunst")
        let caller = try PipelinedCaller(bus: f.bus)
        var generator = HostileMessages(seed: 0x5EED_F00D)
        var problems: [String] = []
        var counts: [String: Int] = [:]
        var warmRSS = 0
        var peakRSS = 0
        var sent = 0
        while sent < Self.messageCount {
            let batch = (0..<Self.batchSize).map { _ in generator.next() }
            let members = batch.map { "\($0.interface ?? "-").\($0.member ?? "?") (\($0.signature))" }
            let outcomes = caller.callAll(batch)
            for (index, outcome) in outcomes.enumerated() {
                switch outcome {
                case .returned(let outputs):
                    generator.noteReply(outputs)
                    counts["returned", default: 0] += 1
                case .error(let name, let message):
                    counts[name, default: 0] += 1
                    if !Self.isNamedRefusal(name) || message.isEmpty {
                        problems.append("message \(sent + index) \(members[index]): \(name): \(message.prefix(200))")
                    }
                case .noReply:
                    problems.append("message \(sent + index) \(members[index]): no reply")
                }
            }
            sent += batch.count
            guard f.daemon.isRunning, problems.count < 20 else { break }
            let rss = ProcessStats.read(pid: f.daemon.pid)?.residentKilobytes ?? 0
            if sent == Self.warmUpMessages { warmRSS = rss }
            peakRSS = max(peakRSS, rss)
        }
        print("fuzz: \(sent) calls, RSS after warm-up \(warmRSS) kB, peak \(peakRSS) kB, answers: \(counts.sorted { $0.key < $1.key })")
        #expect(problems.isEmpty, "\(problems.count) calls without a proper answer:\n\(problems.joined(separator: "\n"))")
        #expect(f.daemon.isRunning, "the daemon died: \(f.daemon.log().suffix(2000))")
        #expect(sent >= Self.messageCount)
        #expect((counts["returned"] ?? 0) > 1_000, "enough calls succeeded to reach deep code: \(counts)")
        #expect(generator.knownIDs.count > 50, "activities were started: \(generator.knownIDs.count)")
        #expect(warmRSS > 0 && peakRSS < 2 * warmRSS + 10_240,
                "RSS after warm-up \(warmRSS) kB, peak \(peakRSS) kB")
        try expectStateFileMatchesList(f)
    }

    /// The saved state (state.json and its journal) parses and lists the same activities as
    /// `List` (retried briefly, as a timer may end an activity between the two reads).
    private func expectStateFileMatchesList(_ f: DaemonFixture) throws {
        var listed: Set<String> = []
        var saved: Set<String> = []
        _ = try waitUntil(timeout: 1) {
            listed = Set(try f.client.list().map { $0[0] })
            let data = try Data(contentsOf: f.daemon.stateFile)
            #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "state.json parses")
            saved = try SavedState.activityIDs(in: f.daemon.stateDirectory)
            return saved == listed
        }
        #expect(saved == listed, "state.json and its journal hold \(saved.sorted()), List says \(listed.sorted())")
    }
}
