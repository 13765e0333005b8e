import ActivityFiles
import ActivityModel
import FoundationEssentials
import ServiceSupport

/// What survives a restart: the live (and not yet dismissed) activities, the `Enabled`
/// setting, and the notification id of each card, so a restarted daemon takes its cards
/// back instead of showing them twice.
package struct PersistedState: Codable {
    package var version: Int = 1
    package var registry: RegistrySnapshot
    package var notificationIDs: [String: UInt32] = [:]
    /// Which journal continues this file (`StateJournal`); absent in files of older versions.
    package var journalGeneration: Int?

    package init(version: Int = 1, registry: RegistrySnapshot, notificationIDs: [String: UInt32] = [:],
                 journalGeneration: Int? = nil) {
        self.version = version
        self.registry = registry
        self.notificationIDs = notificationIDs
        self.journalGeneration = journalGeneration
    }
}

/// Reads and writes the state: `state.json` in full now and then (compaction), and every
/// acknowledged change as a record appended to the journal beside it (`StateJournal`), so a
/// call costs the same however many activities there are. A write that fails throws, so the
/// caller can refuse the call it was for; nothing is acknowledged that is not written.
package final class StateStore {
    package let paths: DaemonPaths
    private let encoder: JSONEncoder
    let journal: StateJournal
    /// The generation of the last `state.json` written or read; the journal continues it.
    private var generation = 0
    /// Whether the next write must be a full one (the journal failed or is not started).
    private var needsFullSave = true
    /// Whether records were appended since the last fsync of the journal.
    private(set) var hasUnsyncedRecords = false
    /// The last write error, reported once until a write succeeds again.
    private(set) var lastError: String?
    /// What the last load had to set aside (bad records, unreadable files), for `StorageStatus`.
    private(set) var setAside: [String] = []
    /// Why the state lock is not held (flock failed with ENOLCK on NFS, say), or nil: without
    /// it another daemon may write the same files, so every write is refused (reads go on).
    package var lockProblem: String?
    /// Whether a `HistoryRotation` is under way on its thread (one at a time).
    package var historyRotationRunning = false

    package init(paths: DaemonPaths) {
        self.paths = paths
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        journal = StateJournal(path: paths.stateDirectory + "/state.journal")
    }

    /// `StorageStatus`: `ok`, or what is wrong now and what was set aside at start.
    package var status: String {
        var parts: [String] = []
        if let lastError { parts.append("error: \(lastError)") }
        if !setAside.isEmpty { parts.append("set aside at start: " + setAside.joined(separator: "; ")) }
        return parts.isEmpty ? "ok" : parts.joined(separator: " | ")
    }

    /// The saved state with the journal's records applied, or nil when there is none. Each
    /// activity record and each journal record is read on its own: a bad one is logged (with
    /// the activity id and the reason) and skipped, the others load, and the damaged file is
    /// copied aside under a name of its own (`StateSalvage`).
    package func load(now: Double = 0) -> PersistedState? {
        let salvage = StateSalvage(paths: paths, now: Int(saturating: now))
        var state = salvage.readStateFile()
        generation = state?.journalGeneration ?? 0
        let replay = JournalReplay.read(path: journal.path, generation: generation)
        if !replay.otherGeneration, !replay.records.isEmpty || !replay.skipped.isEmpty {
            var restored = state ?? PersistedState(registry: RegistrySnapshot(enabled: true, idGenerator: ActivityIDGenerator(seed: UInt64.random(in: 1...UInt64.max)), activities: []))
            for record in replay.records { record.apply(to: &restored) }
            state = restored
        }
        salvage.report(journalSkipped: replay.skipped, journalPath: journal.path)
        setAside = salvage.setAside
        return state
    }

    /// Writes the whole state (a new generation, fsynced) and empties the journal.
    package func saveAll(_ state: PersistedState) throws(AtomicFile.WriteError) {
        do throws(AtomicFile.WriteError) {
            try checkLock()
            var numbered = state
            numbered.journalGeneration = generation + 1
            let data: Data
            do {
                data = try encoder.encode(numbered)
            } catch {
                throw AtomicFile.WriteError(path: paths.stateFile, reason: "cannot encode the state: \(error)")
            }
            needsFullSave = true
            try AtomicFile.write(data, to: paths.stateFile)
            generation += 1
            try journal.reset(generation: generation)
            needsFullSave = false
            hasUnsyncedRecords = false
            succeeded()
        } catch {
            failed(error)
            throw error
        }
    }

    /// Records acknowledged changes: appended to the journal (fsynced when `durable`), or the
    /// whole state when the journal is due for compaction or cannot take them. Throws when
    /// they could not be written; then the caller refuses the call.
    package func record(_ changes: [JournalRecord], durable: Bool, fullState: () -> PersistedState) throws(AtomicFile.WriteError) {
        guard !changes.isEmpty else { return }
        do throws(AtomicFile.WriteError) {
            try checkLock()
        } catch {
            failed(error)
            throw error
        }
        if needsFullSave || !journal.isOpen || journal.wantsCompaction {
            try saveAll(fullState())
            return
        }
        do throws(AtomicFile.WriteError) {
            try journal.record(changes)
            hasUnsyncedRecords = true
            if durable { try syncNow() }
            succeeded()
        } catch {
            // The failed records were cut off again; from now on only a full save (a new file,
            // so space must really be there) is tried, until one succeeds.
            needsFullSave = true
            failed(error)
            throw error
        }
    }

    /// fsyncs the records appended since the last fsync (the batch of updates).
    package func syncNow() throws(AtomicFile.WriteError) {
        guard hasUnsyncedRecords else { return }
        do {
            try journal.sync()
        } catch {
            needsFullSave = true
            throw error
        }
        hasUnsyncedRecords = false
    }

    /// Throws unless the state lock is held.
    private func checkLock() throws(AtomicFile.WriteError) {
        guard let lockProblem else { return }
        throw AtomicFile.WriteError(path: paths.stateDirectory, reason: "the state lock is not held (\(lockProblem)); changes are refused")
    }

    private func succeeded() {
        if lastError != nil { Log.info("state is written again to \(paths.stateDirectory)") }
        lastError = nil
    }

    private func failed(_ error: AtomicFile.WriteError) {
        let message = error.description
        if message != lastError { Log.error("\(message); calls that change something are refused until it can be written") }
        lastError = message
    }

    /// Appends ended activities to the history file, fsynced; throws when it cannot.
    package func appendHistory(_ entries: [HistoryEntry], now: Double) throws(AtomicFile.WriteError) -> HistoryFile.Appended {
        try checkLock()
        return try HistoryFile(path: paths.historyFile).append(entries, now: now)
    }

    /// Takes back lines whose End could not be saved.
    package func takeBackHistory(_ appended: HistoryFile.Appended) {
        HistoryFile(path: paths.historyFile).takeBack(appended)
    }

    /// Whether the history file is due for a rotation (and none is running).
    package func historyIsDue(now: Double) -> Bool {
        !historyRotationRunning && HistoryFile(path: paths.historyFile).isDue(now: now)
    }
}
