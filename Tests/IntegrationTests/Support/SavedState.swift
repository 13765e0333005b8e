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

    /// The notification id saved for activity `id` (state.json's table, then the journal's
    /// `{"notification": …}` records), nil when none is saved yet.
    static func notificationID(of id: String, in stateDirectory: URL) -> UInt32? {
        var number: UInt32?
        if let data = try? Data(contentsOf: stateDirectory.appendingPathComponent("state.json")),
           let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
           let table = json["notificationIDs"] as? [String: Any], let saved = table[id] as? Int {
            number = UInt32(exactly: saved)
        }
        if let journal = try? Data(contentsOf: stateDirectory.appendingPathComponent("state.journal")) {
            for line in journal.split(separator: UInt8(ascii: "\n")) {
                guard let record = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                      let notification = record["notification"] as? [String: Any], notification["id"] as? String == id else { continue }
                number = (notification["number"] as? Int).flatMap { UInt32(exactly: $0) }
            }
        }
        return number
    }
}
