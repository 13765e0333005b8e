import ActivityFiles
import ActivityModel
import FoundationEssentials
import ServiceSupport

/// Reads what can be read of damaged state files: each activity record of `state.json` is
/// decoded on its own, so one bad record is set aside (logged with its id and the reason)
/// and the others load; a file with anything set aside is first copied under a name of its
/// own (`state.json.corrupt-<time>[-n]`), so a later corruption never overwrites an earlier copy.
package final class StateSalvage {
    package let paths: DaemonPaths
    let now: Int
    /// One short line per thing set aside, for `StorageStatus`.
    private(set) var setAside: [String] = []

    init(paths: DaemonPaths, now: Int) {
        self.paths = paths
        self.now = now
    }

    /// `state.json` with every readable activity, or nil when it is missing or unreadable as a whole.
    func readStateFile() -> PersistedState? {
        let path = paths.stateFile
        let data: Data
        switch AtomicFile.readNoFollow(path) {
        case .missing: return nil
        case .unreadable(let reason):
            Log.error("cannot read \(path) (\(reason)); started without it")
            setAside.append("\(path) unreadable (\(reason))")
            return nil
        case .read(let contents): data = contents
        }
        let file: SalvagedStateFile
        do {
            file = try JSONDecoder().decode(SalvagedStateFile.self, from: data)
        } catch {
            let copy = copyAside(path, data)
            let reason = DecodingProblem.describe(error)
            Log.error("cannot read \(path) (\(reason)); copied it to \(copy) and started without it")
            setAside.append("\(path) unreadable (\(reason)), copy in \(copy)")
            return nil
        }
        let bad = file.registry.activities.compactMap(\.problem)
        if !bad.isEmpty {
            let copy = copyAside(path, data)
            for problem in bad {
                Log.error("\(path): activity \(problem.id) set aside: \(problem.reason) (the file is copied to \(copy))")
            }
            setAside.append("\(bad.count) activity record(s) of \(path): "
                            + bad.map { "\($0.id) (\($0.reason))" }.joined(separator: ", ") + ", copy in \(copy)")
        }
        let registry = RegistrySnapshot(version: file.registry.version, enabled: file.registry.enabled,
                                        idGenerator: file.registry.idGenerator,
                                        activities: file.registry.activities.compactMap(\.activity))
        return PersistedState(version: file.version, registry: registry, notificationIDs: file.notificationIDs ?? [:],
                              journalGeneration: file.journalGeneration)
    }

    /// Logs the journal lines skipped at replay and copies a damaged journal aside.
    func report(journalSkipped skipped: [String], journalPath: String) {
        guard !skipped.isEmpty else { return }
        var copy = "nowhere"
        if case .read(let data) = AtomicFile.readNoFollow(journalPath) { copy = copyAside(journalPath, data) }
        for line in skipped { Log.warning("\(line) (the journal is copied to \(copy))") }
        setAside.append("\(skipped.count) journal record(s) skipped, copy in \(copy)")
    }

    /// Writes `data` to a new unique sibling of `path`; returns its path.
    private func copyAside(_ path: String, _ data: Data) -> String {
        guard let copy = AtomicFile.uniqueSibling(of: path, tag: "corrupt", now: now) else { return "nowhere (cannot create a copy)" }
        do {
            try data.write(to: URL(fileURLWithPath: copy))
        } catch {
            return "nowhere (\(error))"
        }
        return copy
    }
}

/// `state.json` as read for salvage: everything but the activities must read; each activity
/// is read on its own.
private struct SalvagedStateFile: Decodable {
    var version: Int
    var registry: Registry
    var notificationIDs: [String: UInt32]?
    var journalGeneration: Int?

    /// The part of a saved registry that salvage reads.
    struct Registry: Decodable {
        var version: Int
        var enabled: Bool
        var idGenerator: ActivityIDGenerator
        var activities: [SalvagedActivity]
    }
}

/// One activity record: the activity, or why it could not be read (with its id when it has one).
private struct SalvagedActivity: Decodable {
    var activity: Activity?
    var problem: (id: String, reason: String)?

    private enum Keys: String, CodingKey { case id }

    init(from decoder: any Decoder) throws {
        do {
            let decoded = try Activity(from: decoder)
            if let reason = decoded.recordProblem {
                problem = ("\"\(Quoted.visible(decoded.id.rawValue))\"", reason)
                return
            }
            activity = decoded
        } catch {
            let id = (try? decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .id)).map { "\"\($0)\"" } ?? "(no id)"
            problem = (id, DecodingProblem.describe(error))
        }
    }
}
