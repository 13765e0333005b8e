import DBus
import Foundation

/// What clients know about their activities while the daemon is being killed: which calls
/// were acknowledged (they must survive) and which failed without an answer (they may or may
/// not have happened). Shared by the client threads; a gate stops them while the test checks.
final class CrashLedger: @unchecked Sendable {
    /// What an activity must look like after a restart.
    struct Expectation {
        /// Seq values Get may show: the last acknowledged one, plus those of unanswered updates since.
        var allowedSequences: Set<Int64>
        /// nil until first seen; then it must never change.
        var startedAt: Int64?
        /// Whether the activity exists for sure (its Start was acknowledged).
        var started: Bool
        /// Whether End was acknowledged (then it must not be live), or sent without an answer.
        var ended: Bool
        var maybeEnded: Bool
    }

    private let lock = NSLock()
    private let gate = NSCondition()
    private var paused = false
    private var inFlight = 0
    private(set) var entries: [String: Expectation] = [:]
    private(set) var acknowledgedCalls = 0
    private(set) var unansweredCalls = 0

    /// Runs one client call once the gate is open (the checker closes it).
    func whileOpen<T>(_ body: () throws -> T) rethrows -> T {
        gate.lock()
        while paused { gate.wait() }
        inFlight += 1
        gate.unlock()
        defer {
            gate.lock(); inFlight -= 1; gate.broadcast(); gate.unlock()
        }
        return try body()
    }

    /// Closes the gate (waiting for calls in flight to finish), runs `body`, opens it again.
    func closed<T>(_ body: () throws -> T) rethrows -> T {
        gate.lock()
        paused = true
        while inFlight > 0 { gate.wait() }
        gate.unlock()
        defer {
            gate.lock(); paused = false; gate.broadcast(); gate.unlock()
        }
        return try body()
    }

    func startSent(_ id: String, acknowledged: Bool) {
        locked {
            count(acknowledged)
            if acknowledged {
                entries[id] = Expectation(allowedSequences: [0], startedAt: nil, started: true, ended: false, maybeEnded: false)
            } else if entries[id] == nil {
                entries[id] = Expectation(allowedSequences: [0], startedAt: nil, started: false, ended: false, maybeEnded: false)
            }
        }
    }

    func updateSent(_ id: String, sequence: Int64, acknowledged: Bool) {
        locked {
            count(acknowledged)
            guard var entry = entries[id] else { return }
            if acknowledged { entry.allowedSequences = [sequence] } else { entry.allowedSequences.insert(sequence) }
            entries[id] = entry
        }
    }

    func endSent(_ id: String, acknowledged: Bool) {
        locked {
            count(acknowledged)
            if acknowledged { entries[id]?.ended = true } else { entries[id]?.maybeEnded = true }
        }
    }

    /// After a check: what the restarted daemon showed is now the truth (it came from disk).
    /// An ended activity no longer changes and leaves the ledger.
    func resolve(_ id: String, exists: Bool, ended: Bool, sequence: Int64?, startedAt: Int64?) {
        locked {
            guard exists, !ended else { entries[id] = nil; return }
            guard var entry = entries[id] else { return }
            entry.started = true
            entry.ended = ended
            entry.maybeEnded = false
            if let sequence { entry.allowedSequences = [sequence] }
            if entry.startedAt == nil { entry.startedAt = startedAt }
            entries[id] = entry
        }
    }

    /// Ids a client may still update (started for sure, not ended, not maybe ended).
    func liveIDs(prefix: String) -> [String] {
        locked { entries.filter { $0.key.hasPrefix(prefix) && $0.value.started && !$0.value.ended && !$0.value.maybeEnded }.keys.sorted() }
    }

    func snapshot() -> [String: Expectation] { locked { entries } }

    var counts: (acknowledged: Int, unanswered: Int) { locked { (acknowledgedCalls, unansweredCalls) } }

    private func count(_ acknowledged: Bool) {
        if acknowledged { acknowledgedCalls += 1 } else { unansweredCalls += 1 }
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        return body()
    }
}
