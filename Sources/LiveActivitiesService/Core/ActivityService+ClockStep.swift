import ActivityModel

/// Wall-clock steps (issue 18, point 9): the size of a step is how much the wall clock moved
/// against the boot-time clock (which never steps and counts suspend) since it was last read;
/// the model then moves the moments the daemon took from its own clock by that much.
extension ActivityService {
    /// Measures the step just signalled and shifts the clock's anchors by it (a step under a
    /// second is noise of the two readings, not a step).
    func shiftClockAnchors() {
        let now = environment.clock.now
        guard let step = scheduler.wallClockStep(now: now) else { return }
        Log.info("the wall clock moved by \(Int64(saturating: step.rounded())) s; timers started at \"now\" move with it")
        let mark = registry.beginChange()
        let events = registry.shiftClockAnchors(by: step, now: now)
        registry.endChange()  // like a tick's, time's changes stand even when they cannot be written now
        guard !events.isEmpty else { return }
        durability.persistQuietly(registry.journalRecords(of: events, since: mark), durable: true) { fullState }
        announce(events, in: readView(at: now))
    }
}
