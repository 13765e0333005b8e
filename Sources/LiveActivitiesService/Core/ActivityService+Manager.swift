import ActivityModel
import DBus

/// The one timer of all activities, and what happens when it fires (what depends on every
/// activity besides: `Publisher+Manager`; a wall-clock step: `+ClockStep`).
extension ActivityService {
    /// Arms the one timer at the model's next deadline (none when nothing is live), from the
    /// bus's texts (with seconds: a card without them changes less often, never more).
    func reschedule(in view: RoundView) {
        scheduler.schedule(at: view.nextDeadline) { [weak self] in self?.tick() }
    }

    /// The timer fired: whatever was due happens, at one moment read once.
    func tick() {
        publishNow()
        let now = environment.clock.now
        let mark = registry.beginChange()
        let utcOffset = environment.clock.utcOffset(at: now)
        let events = registry.tick(now: now, timeZoneOffset: utcOffset, style: .standard)
        registry.endChange()  // time's changes stand even when they cannot be written now
        registry.logDroppedScheduledUpdates()
        let lasting = events.filter { if case .rendered = $0 { return false } else { return true } }
        if !lasting.isEmpty {
            durability.persistQuietly(registry.journalRecords(of: lasting, since: mark), durable: true) { fullState }
        }
        durability.recordHistory(events, now: now)
        let view = readView(at: now, utcOffset: utcOffset)
        announce(events, in: view)
        settle(in: view)
    }
}
