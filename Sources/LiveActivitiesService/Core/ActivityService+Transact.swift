import ActivityModel
import DBus
import Persistence

/// The one pattern of a call that changes something: the clock read once, the model's call
/// with what it replaces kept aside (no copy of the registry), the history lines of what
/// ended and the journal records taken from the events, written before the reply (a write
/// that fails takes the lines back, puts the registry back and refuses the call with
/// `StorageFailed`), then published after the reply. The same steps as `commit`, which the
/// calls that need a copy anyway (Start with push, Focus) still use.
extension ActivityService {
    /// Runs `change` at one moment and commits its events; returns its result.
    func transact<T>(durable: Bool = true,
                     _ change: (_ now: Double) throws(ActivityError) -> (result: T, events: [ActivityEvent])) throws(DBusError) -> T {
        let now = clock.now
        let mark = registry.beginChange()
        let outcome: (result: T, events: [ActivityEvent])
        do {
            outcome = try change(now)
        } catch {
            registry.endChange()  // a refused call changed nothing
            throw Self.busError(error)
        }
        let history: HistoryFile.Appended?
        do throws(DBusError) {
            history = try appendHistory(outcome.events, now: now)
        } catch {
            registry.rollBack()
            throw error
        }
        let records = changes(outcome.events, since: mark)
        do {
            try store.record(records, durable: durable) { fullState }
        } catch {
            if let history { store.takeBackHistory(history) }
            registry.rollBack()
            publishStorageStatus()
            throw Self.storageFailed(error)
        }
        registry.endChange()
        if !durable { syncSoon() }
        if history != nil { rotateHistoryIfDue(now: now) }
        publisher.publishLater(outcome.events)
        return outcome.result
    }

    /// The journal records of what `events` changed since `mark`: each activity's record, or
    /// its removal, and the settings when they moved.
    func changes(_ events: [ActivityEvent], since mark: RegistryMark) -> [JournalRecord] {
        changes(events, enabledBefore: mark.enabled, idGeneratorBefore: mark.idGenerator) { _ in true }
    }
}
