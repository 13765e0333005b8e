import DBus
import Foundation
import Testing
import TestSupport

/// Crashes: the daemon is SIGKILLed at random moments while clients start, update and end
/// activities. After every restart each acknowledged activity is back with its start time and
/// its latest acknowledged state, and the state file always parses.
@Suite("Crashes", .timeLimit(.minutes(5)))
struct CrashTests {
    static let kills = 25
    static let clients = 3

    /// Fifty kills as two runs of 25 side by side, each with its own daemon and seed: the same
    /// proof in half the wall time (one run of 50 was the longest test of the suite, 18 s alone).
    @Test(arguments: [UInt64(0xC4A5_11ED), 0x5EED_C4A5])
    func acknowledgedWorkSurvivesTwentyFiveKills(seed: UInt64) throws {
        let f = try DaemonFixture(recorderName: nil, recordSignals: false)
        let ledger = CrashLedger()
        let stop = StopFlag()
        let group = DispatchGroup()
        for client in 0..<Self.clients {
            group.enter()
            let address = f.bus.address
            Thread {
                Self.work(address: address, client: client, ledger: ledger, stop: stop)
                group.leave()
            }.start()
        }
        defer { stop.set(); group.wait() }

        var random = SeededRandom(seed: seed)
        var problems: [String] = []
        for kill in 0..<Self.kills where problems.count < 10 {
            // The subject, not a wait: the kill comes at a random moment of the clients' work.
            Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.25, using: &random))
            f.daemon.kill()
            if let torn = Self.tornStateFile(f.daemon.stateFile) { problems.append("kill \(kill): \(torn)") }
            try f.daemon.start()
            ledger.closed {
                problems += Self.check(ledger: ledger, client: f.client).map { "kill \(kill): \($0)" }
            }
        }
        let counts = ledger.counts
        print("crash: \(Self.kills) kills, \(counts.acknowledged) acknowledged calls, \(counts.unanswered) unanswered")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(counts.acknowledged > 500, "the clients got work done between kills: \(counts.acknowledged)")
        #expect(counts.unanswered > 0, "some calls were cut off by a kill")
    }

    /// nil when the state file is absent or parses as JSON; else what is wrong with it.
    static func tornStateFile(_ url: URL) -> String? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) == nil ? "state.json does not parse (\(data.count) bytes)" : nil
    }

    /// Compares every activity in the ledger with what the restarted daemon says.
    static func check(ledger: CrashLedger, client: TestClient) -> [String] {
        var problems: [String] = []
        for (id, expected) in ledger.snapshot() {
            let properties: [String: DBusValue]
            do {
                properties = try client.get(id)
            } catch let error as DBusError where error.name.hasSuffix(".NotFound") {
                if expected.started && !expected.ended && !expected.maybeEnded {
                    problems.append("\(id): acknowledged activity lost")
                }
                ledger.resolve(id, exists: false, ended: true, sequence: nil, startedAt: nil)
                continue
            } catch {
                problems.append("\(id): Get failed: \(error)")
                continue
            }
            let status = properties["status"]?.string ?? ""
            let ended = status == "ended" || status == "dismissed"
            let sequence = properties["state"]?.vardict?["seq"]?.integer
            let startedAt = properties["started-at"]?.integer
            if expected.ended && !ended { problems.append("\(id): acknowledged End undone, status \(status)") }
            if !expected.ended && !expected.maybeEnded && ended { problems.append("\(id): ended without an End") }
            if !expected.allowedSequences.contains(sequence ?? -1) {
                problems.append("\(id): seq \(String(describing: sequence)), expected one of \(expected.allowedSequences.sorted())")
            }
            if let first = expected.startedAt, first != startedAt {
                problems.append("\(id): started-at changed from \(first) to \(String(describing: startedAt))")
            }
            ledger.resolve(id, exists: true, ended: ended, sequence: sequence, startedAt: startedAt)
        }
        return problems
    }

    /// One client: starts, updates and ends its own activities until stopped, recording in
    /// the ledger which calls were acknowledged.
    static func work(address: String, client: Int, ledger: CrashLedger, stop: StopFlag) {
        guard let connection = try? DBusConnection(address: address) else { return }
        var random = SeededRandom(seed: UInt64(client + 1) * 0x9E37)
        var serial = 0
        var sequence: Int64 = 0
        let prefix = "c\(client)_"
        while !stop.isSet {
            ledger.whileOpen {
                let live = ledger.liveIDs(prefix: prefix)
                let roll = Double.random(in: 0..<1, using: &random)
                if live.count < 3 || (live.count < 8 && roll < 0.12) {
                    serial += 1
                    let id = prefix + String(serial)
                    let ok = call(connection, "Start", [.string("generic"), .vardict([:]),
                                                        .vardict(["title": .string(id), "seq": .int64(0)]),
                                                        .vardict(["id": .string(id)])])
                    ledger.startSent(id, acknowledged: ok)
                } else if roll < 0.88 {
                    let id = random.pick(live)
                    sequence += 1
                    let ok = call(connection, "Update", [.string(id), .vardict(["seq": .int64(sequence)]), .vardict([:])])
                    ledger.updateSent(id, sequence: sequence, acknowledged: ok)
                } else {
                    let id = random.pick(live)
                    let dismissal = random.chance(0.5) ? "immediate" : "default"
                    let ok = call(connection, "End", [.string(id), .vardict([:]), .vardict(["dismissal": .string(dismissal)])])
                    ledger.endSent(id, acknowledged: ok)
                }
            }
        }
    }

    /// Whether the call was acknowledged; a refusal by a live daemon would be a test bug, so
    /// it is counted as unanswered too (and shows up in the checks).
    private static func call(_ connection: DBusConnection, _ member: String, _ arguments: [DBusValue]) -> Bool {
        do {
            _ = try connection.callMethod(destination: TestClient.busName, path: TestClient.path, interface: TestClient.interface,
                                          member: member, arguments: arguments, timeoutMilliseconds: 3_000)
            return true
        } catch {
            usleep(20_000)  // back-off, not a wait: while the daemon is down, a call fails at once
            return false
        }
    }
}

/// Tells client threads to finish.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
