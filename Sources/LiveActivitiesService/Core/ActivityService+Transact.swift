import ActivityModel
import DBus
import Persistence

/// The one path of a change a caller waits for (a bus call, a card, tray or job button, the
/// user going idle or coming back): the clock read once, the model's call with what it
/// replaces kept aside (no copy of the registry), the history lines of what ended and the
/// journal records taken from the events, written before the reply (a write that fails takes
/// the lines back, puts the registry back and refuses the call with `StorageFailed`), then
/// published after the reply. An accepted call is written before the reply (nothing
/// acknowledged may be lost); lifecycle changes are fsynced before it, updates (`durable:
/// false`) are fsynced in a batch within a second (`Durability`). Changes nobody waits for (a
/// tick, a wall-clock step) are written quietly instead (`+Manager`, `+ClockStep`).
extension ActivityService {
    /// Runs `change` at one moment (`moment`, or the clock now) and commits its events;
    /// returns its result. `prepare` writes what must be on disk before the change is
    /// acknowledged besides the journal (Start's push entry); when it fails, the change is
    /// taken back. `undo` takes back what `prepare` did when the change cannot be written.
    func transact<T>(durable: Bool = true, at moment: Double? = nil,
                     _ change: (_ now: Double) throws(ActivityError) -> (result: T, events: [ActivityEvent]),
                     prepare: (T) throws(DBusError) -> Void = { _ in },
                     undo: (T) -> Void = { _ in }) throws(DBusError) -> T {
        let now = moment ?? environment.clock.now
        let mark = registry.beginChange()
        let outcome: (result: T, events: [ActivityEvent])
        do {
            outcome = try change(now)
        } catch {
            registry.endChange()  // a refused call changed nothing
            throw DBusError(error)
        }
        do throws(DBusError) {
            try prepare(outcome.result)
        } catch {
            registry.rollBack()
            throw error
        }
        do throws(DBusError) {
            try write(outcome.events, since: mark, durable: durable, now: now)
        } catch {
            undo(outcome.result)
            throw error
        }
        return outcome.result
    }

    /// The history lines and journal records of `events`, written; when either cannot be
    /// written, the lines go back and so does the registry, and the call is refused.
    private func write(_ events: [ActivityEvent], since mark: RegistryMark, durable: Bool, now: Double) throws(DBusError) {
        let history: HistoryFile.Appended?
        do throws(DBusError) {
            history = try durability.appendHistory(events, now: now)
        } catch {
            registry.rollBack()
            throw error
        }
        let records = registry.journalRecords(of: events, since: mark)
        do {
            try durability.store.record(records, durable: durable) { fullState }
        } catch {
            if let history { durability.store.takeBackHistory(history) }
            registry.rollBack()
            publishStorageStatus()
            throw .storageFailed(error)
        }
        registry.endChange()
        if !durable { durability.syncSoon() }
        if history != nil { durability.rotateHistoryIfDue(now: now) }
        // A change with no events (`Enabled`) has nothing to publish.
        if !events.isEmpty { publishLater(events) }
    }
}
