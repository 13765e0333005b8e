import ActivityModel
import DBus

/// The one timer of all activities, and what happens when it fires or the wall clock steps
/// (what depends on every activity besides: `Publisher+Manager`).
extension ActivityService {
    /// Arms the one timer at the model's next deadline (none when nothing is live), from the
    /// bus's texts (with seconds: a card without them changes less often, never more).
    func reschedule(in view: RoundView) {
        scheduler.schedule(at: view.nextDeadline) { [weak self] in self?.tick() }
    }

    /// The wall clock was stepped (either way): the armed deadline was computed from the old
    /// time, so render now and re-arm from the new time.
    func wallClockStepped() {
        Log.info("the wall clock was stepped; rendering now and re-arming the timer from the new time")
        shiftClockAnchors()
        scheduler.cancel()
        tick()
    }

    /// The timer fired: whatever was due happens, at one moment read once.
    func tick() {
        publishNow()
        let now = environment.clock.now
        let mark = registry.beginChange()
        let utcOffset = environment.clock.utcOffset(at: now)
        let events = registry.tick(now: now, timeZoneOffset: utcOffset, style: .standard)
        registry.endChange()  // time's changes stand even when they cannot be written now
        logDroppedScheduledUpdates()
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
