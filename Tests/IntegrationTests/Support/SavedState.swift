import Foundation

/// What the daemon has saved, read the way it reads it at start: `state.json`, then the
/// records of `state.journal` when the journal continues that file's generation (an activity
/// record adds or replaces one, `{"removed": id}` removes one).
enum SavedState {
    static func activityIDs(in stateDirectory: URL) throws -> Set<String> {
        let data = try Data(contentsOf: stateDirectory.appendingPathComponent("state.json"))
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        let registry = json["registry"] as? [String: Any] ?? [:]
        let activities = registry["activities"] as? [[String: Any]] ?? []
        var ids = Set(activities.compactMap { $0["id"] as? String })
        let generation = json["journalGeneration"] as? Int ?? 0
        guard let journal = try? Data(contentsOf: stateDirectory.appendingPathComponent("state.journal")) else { return ids }
        let lines = journal.split(separator: UInt8(ascii: "\n"))
        guard let header = lines.first.flatMap({ try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }),
              header["generation"] as? Int == generation else { return ids }
        for line in lines.dropFirst() {
            guard let record = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { continue }
            if let removed = record["removed"] as? String {
                ids.remove(removed)
            } else if let id = record["id"] as? String, record["kind"] != nil {
                ids.insert(id)
            }
        }
        return ids
    }
}
