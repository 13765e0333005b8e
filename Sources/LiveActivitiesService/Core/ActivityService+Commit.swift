import ActivityModel
import DBus
import Persistence

/// Where a change is persisted. An accepted call is written before the reply (nothing
/// acknowledged may be lost; a call whose record cannot be written is refused with
/// `StorageFailed` and changes nothing: `transact`), then published (`Publisher+Rounds`).
/// Lifecycle changes are fsynced before the reply; updates, and the notification ids the
/// server hands out, are written before the reply (or at once) and fsynced in a batch within
/// a second, so a Start costs one fsync, plus those of `push.json` (a file and its directory)
/// when it has push options.
extension ActivityService {
    /// After a change no caller waits for (a tick, a wall-clock step, a notification id):
    /// written like a call's, but a failure is only logged; the store then writes everything
    /// at the next chance.
    func persistQuietly(_ records: [JournalRecord], durable: Bool) {
        do {
            try store.record(records, durable: durable) { fullState }
        } catch {
            publishStorageStatus()
        }
    }

    /// The whole state, for a full save.
    var fullState: PersistedState {
        PersistedState(registry: registry.snapshot, notificationIDs: publisher.notificationIDs)
    }

    /// The journal records of what `events` changed since `mark`: each activity's record, or
    /// its removal, and the settings when they moved.
    func changes(_ events: [ActivityEvent], since mark: RegistryMark) -> [JournalRecord] {
        var changed: [JournalRecord] = []
        if mark.enabled != registry.enabled || mark.idGenerator != registry.idGenerator {
            changed.append(.settings(enabled: registry.enabled, idGenerator: registry.idGenerator))
        }
        var seen = Set<String>()
        for event in events {
            let id = event.activityID.rawValue
            guard seen.insert(id).inserted else { continue }
            if let activity = registry.activity(id) {
                changed.append(.activity(activity))
            } else {
                changed.append(.removed(id))
            }
        }
        return changed
    }

    /// The server gave the card of `id` a new notification id: appended to the journal at once
    /// (a crashed daemon then replaces that card instead of adding one) and fsynced with the
    /// next batch, not on its own.
    func rememberNotificationID(_ notificationID: UInt32, of id: String) {
        guard registry.activity(id) != nil, publisher.remember(notificationID: notificationID, of: id) else { return }
        persistQuietly([.notificationID(activity: id, number: notificationID)], durable: false)
        syncSoon()
    }

    /// The fsync batch: at most `syncInterval` after the first write that waits for it.
    func syncSoon() {
        guard !syncPending else { return }
        syncPending = true
        clock.wake(afterSeconds: Self.syncInterval) { [weak self] in
            guard let self else { return }
            self.syncPending = false
            self.flush()
        }
    }

    /// fsyncs what is written but not yet on stable storage (also at exit).
    public func flush() {
        do {
            try store.syncNow()
        } catch {
            Log.error("\(error.description); recent updates may not survive a power loss")
            publishStorageStatus()
        }
    }

    /// The longest an acknowledged Update waits for its fsync (power loss costs at most this).
    static let syncInterval = 1.0
}
