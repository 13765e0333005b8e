import ActivityModel
import FoundationEssentials

/// What survives a restart: the live (and not yet dismissed) activities, the `Enabled`
/// setting, and the notification id of each card, so a restarted daemon takes its cards
/// back instead of showing them twice.
struct PersistedState: Codable {
    var version: Int = 1
    var registry: RegistrySnapshot
    var notificationIDs: [String: UInt32] = [:]
    /// Which journal continues this file (`StateJournal`); absent in files of older versions.
    var journalGeneration: Int?
}

/// Reads and writes `state.json` atomically (on every lifecycle change), records each
/// acknowledged update in the journal beside it (`StateJournal`), and appends ended
/// activities to the history file.
final class StateStore {
    let paths: DaemonPaths
    private let encoder: JSONEncoder
    private let journal: StateJournal
    /// The generation of the last `state.json` written or read; the journal continues it.
    private var generation = 0
    /// Whether the journal was reset after the last full save and can take records.
    private var journalReady = false
    /// The last write error, reported once until a write succeeds again.
    private(set) var lastError: String?

    init(paths: DaemonPaths) {
        self.paths = paths
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        journal = StateJournal(path: paths.stateDirectory + "/state.journal")
    }

    /// The saved state with the journal's updates applied, or nil when there is none; a file
    /// that cannot be read is moved aside (`state.json.corrupt`) and reported, so the daemon
    /// starts clean rather than not at all.
    func load() -> PersistedState? {
        guard let data = FileManager.default.contents(atPath: paths.stateFile) else { return nil }
        do {
            var state = try JSONDecoder().decode(PersistedState.self, from: data)
            generation = state.journalGeneration ?? 0
            let updates = StateJournal.replay(path: journal.path, generation: generation)
            var activities = state.registry.activities
            for updated in updates {
                if let index = activities.firstIndex(where: { $0.id == updated.id }) { activities[index] = updated }
            }
            state.registry.activities = activities
            return state
        } catch {
            let aside = paths.stateFile + ".corrupt"
            _ = try? FileManager.default.removeItem(atPath: aside)
            _ = try? FileManager.default.moveItem(atPath: paths.stateFile, toPath: aside)
            Log.error("cannot read \(paths.stateFile) (\(error)); moved it to \(aside) and started empty")
            return nil
        }
    }

    /// Writes the whole state (a new generation) and empties the journal; a failure is logged
    /// (once per distinct error) and returned.
    @discardableResult
    func save(_ state: PersistedState) -> Bool {
        do {
            var numbered = state
            numbered.journalGeneration = generation + 1
            let data = try encoder.encode(numbered)
            try AtomicFile.write(data, to: paths.stateFile)
            generation += 1
            journalReady = false
            try journal.reset(generation: generation)
            journalReady = true
            if lastError != nil { Log.info("state is written again to \(paths.stateFile)") }
            lastError = nil
            return true
        } catch {
            report("\(error)")
            return false
        }
    }

    /// Records one acknowledged update of `activity` in the journal; returns false when the
    /// caller must write the whole state instead (the journal is full, or failed).
    func record(_ activity: Activity) -> Bool {
        guard journalReady, !journal.wantsCompaction else { return false }
        do {
            try journal.record(activity)
            return true
        } catch {
            journalReady = false
            report("\(error)")
            return false
        }
    }

    private func report(_ message: String) {
        if message != lastError { Log.error("\(message); activities keep running but will not survive a restart") }
        lastError = message
    }

    /// Appends one ended activity to the history file.
    func appendHistory(_ entry: HistoryEntry) {
        do {
            try AtomicFile.appendLine(Data(try entry.jsonLine().utf8), to: paths.historyFile)
        } catch {
            Log.error("cannot append to \(paths.historyFile): \(error)")
        }
    }
}
