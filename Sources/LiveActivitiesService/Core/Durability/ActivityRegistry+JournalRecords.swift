import ActivityModel
import Persistence

/// What a change writes to the journal, read off the registry after it: kept next to
/// `Durability` because the model knows nothing of the journal.
extension ActivityRegistry {
    /// The journal records of what `events` changed since `mark`: each activity's record, or
    /// its removal, and the settings when they moved.
    func journalRecords(of events: [ActivityEvent], since mark: RegistryMark) -> [JournalRecord] {
        var changed: [JournalRecord] = []
        if mark.enabled != enabled || mark.idGenerator != idGenerator {
            changed.append(.settings(enabled: enabled, idGenerator: idGenerator))
        }
        var seen = Set<String>()
        for event in events {
            let id = event.activityID.rawValue
            guard seen.insert(id).inserted else { continue }
            if let activity = activity(id) {
                changed.append(.activity(activity))
            } else {
                changed.append(.removed(id))
            }
        }
        return changed
    }
}
