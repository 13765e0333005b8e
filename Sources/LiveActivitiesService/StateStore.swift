import ActivityModel
import Foundation

/// What survives a restart: the live (and not yet dismissed) activities, the `Enabled`
/// setting, and the notification id of each card, so a restarted daemon takes its cards
/// back instead of showing them twice.
struct PersistedState: Codable {
    var version: Int = 1
    var registry: RegistrySnapshot
    var notificationIDs: [String: UInt32] = [:]
}

/// Reads and writes `state.json` atomically (on every lifecycle change and acknowledged
/// update), and appends ended activities to the history file.
final class StateStore {
    let paths: DaemonPaths
    private let encoder: JSONEncoder
    /// The last write error, reported once until a write succeeds again.
    private(set) var lastError: String?

    init(paths: DaemonPaths) {
        self.paths = paths
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
    }

    /// The saved state, or nil when there is none; a file that cannot be read is moved aside
    /// (`state.json.corrupt`) and reported, so the daemon starts clean rather than not at all.
    func load() -> PersistedState? {
        guard let data = FileManager.default.contents(atPath: paths.stateFile) else { return nil }
        do {
            return try JSONDecoder().decode(PersistedState.self, from: data)
        } catch {
            let aside = paths.stateFile + ".corrupt"
            _ = try? FileManager.default.removeItem(atPath: aside)
            _ = try? FileManager.default.moveItem(atPath: paths.stateFile, toPath: aside)
            Log.error("cannot read \(paths.stateFile) (\(error)); moved it to \(aside) and started empty")
            return nil
        }
    }

    /// Writes the state; a failure is logged (once per distinct error) and returned.
    @discardableResult
    func save(_ state: PersistedState) -> Bool {
        do {
            let data = try encoder.encode(state)
            try AtomicFile.write(data, to: paths.stateFile)
            if lastError != nil { Log.info("state is written again to \(paths.stateFile)") }
            lastError = nil
            return true
        } catch {
            let message = "\(error)"
            if message != lastError { Log.error("\(message); activities keep running but will not survive a restart") }
            lastError = message
            return false
        }
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
