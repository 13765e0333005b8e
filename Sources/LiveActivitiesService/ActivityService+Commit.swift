import ActivityModel
import DBus

/// What happens after the model accepted a call: it is persisted before the reply (nothing
/// acknowledged may be lost; a call whose record cannot be written is refused with
/// `StorageFailed` and changes nothing), and published after it. Publishing (signals,
/// PropertiesChanged, the card) runs once the messages at hand are handled, so the reply is
/// not held up by it and a flood of calls is published in rounds, in order, with one
/// PropertiesChanged per activity and round carrying its latest values.
extension ActivityService {
    /// After an accepted call: its records are written (fsynced before the reply when
    /// `durable`, else within a second), then the events are published. When they cannot be
    /// written, the registry goes back to `before` and the call is refused.
    func commit(_ events: [ActivityEvent], before: ActivityRegistry, durable: Bool = true, now: Double) throws(DBusError) {
        do {
            try store.record(changes(events, since: before), durable: durable) { fullState }
        } catch {
            registry = before
            publishStorageStatus()
            throw Self.storageFailed(error)
        }
        if !durable { syncSoon() }
        recordHistory(events, now: now)
        publishLater(events)
    }

    /// After a change no caller waits for (a tick, a card's notification id): written like a
    /// call's, but a failure is only logged; the store then writes everything at the next chance.
    func persistQuietly(_ events: [ActivityEvent], since before: ActivityRegistry) {
        persistQuietly(changes(events, since: before))
    }

    func persistQuietly(_ records: [JournalRecord]) {
        do {
            try store.record(records, durable: true) { fullState }
        } catch {
            publishStorageStatus()
        }
    }

    /// The whole state, for a full save.
    var fullState: PersistedState {
        PersistedState(registry: registry.snapshot, notificationIDs: notificationIDs)
    }

    /// The journal records of what `events` changed since `before`: each activity's record,
    /// or its removal, and the settings when they moved.
    func changes(_ events: [ActivityEvent], since before: ActivityRegistry) -> [JournalRecord] {
        var records: [JournalRecord] = []
        if before.enabled != registry.enabled || before.idGenerator != registry.idGenerator {
            records.append(.settings(enabled: registry.enabled, idGenerator: registry.idGenerator))
        }
        var seen = Set<String>()
        for event in events {
            let id = event.activityID.rawValue
            guard seen.insert(id).inserted else { continue }
            if let activity = registry.activity(id) {
                records.append(.activity(activity))
            } else if before.activity(id) != nil {
                records.append(.removed(id))
            }
        }
        return records
    }

    /// The refusal of a call whose record could not be written.
    static func storageFailed(_ error: AtomicFile.WriteError) -> DBusError {
        DBusError(name: BusNames.errorPrefix + "StorageFailed",
                  message: "the change could not be saved, so it was not made: \(error.description)")
    }

    /// Updates are written before the reply but fsynced in batches: at most a second after the first.
    func syncSoon() {
        guard !syncPending else { return }
        syncPending = true
        loop.addTimer(afterSeconds: Self.syncInterval) { [weak self] in
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

    /// Appends each ended activity to the history file (before the reply, like the state);
    /// a rotation it makes due runs after the reply.
    func recordHistory(_ events: [ActivityEvent], now: Double) {
        var due = false
        for case .ended(_, _, let history) in events { due = store.appendHistory(history, now: now) || due }
        guard due else { return }
        let target = LoopBound(self)
        loop.post { target.value.store.rotateHistory(now: target.value.clock()) }
    }

    /// Queues events for the next publishing round. A started activity's object is exported
    /// at once, so a client can use the path the reply carries straight away.
    func publishLater(_ events: [ActivityEvent]) {
        for case .started(let id, _) in events { try? exportActivity(id.rawValue) }
        unpublished += events
        guard !publishPending else { return }
        publishPending = true
        let target = LoopBound(self)
        loop.post { target.value.publishNow() }
    }

    /// Publishes every queued event now (also called first by anything that publishes
    /// directly, such as a tick, so the order of events is kept).
    func publishNow() {
        publishPending = false
        guard !unpublished.isEmpty else { return }
        let events = unpublished
        unpublished = []
        apply(events, now: clock())
        settleSoon()
    }

    /// CompactText, ActiveCount and the tick timer depend on every activity, so they are
    /// recomputed once per publishing round, and under a flood at most once per
    /// `settleInterval` (measured on the monotonic clock, so a wall-clock step cannot hold it
    /// back): a flood of updates pays for them 20 times a second, not once per update.
    func settleSoon() {
        guard !settlePending else { return }
        settlePending = true
        let target = LoopBound(self)
        let elapsed = monotonicClock() - lastSettle
        if elapsed >= Self.settleInterval {
            settle()
        } else {
            loop.addTimer(afterSeconds: Self.settleInterval - elapsed) { target.value.settle() }
        }
    }

    private func settle() {
        settlePending = false
        lastSettle = monotonicClock()
        let now = clock()
        refreshManager(now: now)
        reschedule(now: now)
    }
}
