import ActivityModel
import DBus

/// What happens after the model accepted a call: it is persisted before the reply (nothing
/// acknowledged may be lost), and published after it. Publishing (signals, PropertiesChanged,
/// the card) runs once the messages at hand are handled, so the reply is not held up by it and
/// a flood of calls is published in rounds, in order, with one PropertiesChanged per activity
/// and round carrying its latest values.
extension ActivityService {
    /// After an acknowledged call: the whole state is written, then the events are published.
    func commit(_ events: [ActivityEvent], now: Double) {
        persist()
        recordHistory(events)
        publishLater(events)
    }

    /// After an acknowledged Update: only that activity changed, so its record goes to the
    /// journal (one small append); the whole state is written when the journal cannot take it.
    func commitUpdate(of id: String, _ events: [ActivityEvent], now: Double) {
        let onlyThisActivity = events.allSatisfy { $0.activityID.rawValue == id }
        if !onlyThisActivity || !(registry.activity(id).map(store.record) ?? false) { persist() }
        recordHistory(events)
        publishLater(events)
    }

    func persist() {
        store.save(PersistedState(registry: registry.snapshot, notificationIDs: notificationIDs))
    }

    /// Appends each ended activity to the history file (before the reply, like the state).
    func recordHistory(_ events: [ActivityEvent]) {
        for case .ended(_, _, let history) in events { store.appendHistory(history) }
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
    /// `settleInterval`: a flood of updates pays for them 20 times a second, not once per update.
    func settleSoon() {
        guard !settlePending else { return }
        settlePending = true
        let target = LoopBound(self)
        let now = clock()
        if now - lastSettle >= Self.settleInterval {
            settle()
        } else {
            _ = loop.addTimer(at: lastSettle + Self.settleInterval) { target.value.settle() }
        }
    }

    private func settle() {
        settlePending = false
        let now = clock()
        lastSettle = now
        refreshManager(now: now)
        reschedule(now: now)
    }
}
