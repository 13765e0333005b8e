import ActivityModel

/// Wall-clock steps (issue 18, point 9): the size of a step is how much the wall clock moved
/// against the boot-time clock (which never steps and counts suspend) since it was last read
/// (`TickScheduler.wallClockStep`); the model then moves the moments the daemon took from its
/// own clock by that much, and the timer is re-armed from the new time.
extension ActivityService {
    /// The wall clock was stepped (either way): the clock's anchors shift by the step measured
    /// (a step under a second is noise of the two readings, not a step); the armed deadline
    /// was computed from the old time, so render now and re-arm from the new time.
    func wallClockStepped() {
        Log.info("the wall clock was stepped; rendering now and re-arming the timer from the new time")
        let now = environment.clock.now
        if let step = scheduler.wallClockStep(now: now) {
            Log.info("the wall clock moved by \(Int64(saturating: step.rounded())) s; timers started at \"now\" move with it")
            let mark = registry.beginChange()
            let events = registry.shiftClockAnchors(by: step, now: now)
            registry.endChange()  // like a tick's, time's changes stand even when they cannot be written now
            if !events.isEmpty {
                durability.persistQuietly(registry.journalRecords(of: events, since: mark), durable: true) { fullState }
                announce(events, in: readView(at: now))
            }
        }
        scheduler.cancel()
        tick()
    }
}
