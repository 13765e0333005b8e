/// Idle-aware sessions (issue 21): a session paused because the user walked away resumes when
/// the user chooses what the time away was. The pause itself is an ordinary `pause`; what is
/// special is the resume, which can count the whole time away as running time or none of it.
extension ActivityRegistry {
    /// Resumes a session the daemon paused at its `pausedAt` because the user had been idle
    /// since `idleSince` (before the pause: idleness is only noticed after a threshold).
    /// - `keepAwayTime`: the time away counts: the timer stands where it would had it never
    ///   paused (a countdown that ran out meanwhile completes at the next tick).
    /// - otherwise none of it counts: the timer resumes where it stood at `idleSince`.
    /// Returns the events and the seconds of running time the time away was worth
    /// (0 when kept: it became running time).
    public mutating func resumeAfterAway(id: String, idleSince: UnixTime, keepAwayTime: Bool,
                                         now: UnixTime) throws(ActivityError) -> (events: [ActivityEvent], awaySeconds: Double) {
        var activity = try existingLive(id, toBe: "resumed")
        guard var timer = activity.timer, let pausedAt = timer.pausedAt else {
            throw .invalidArgument("activity \(Quoted.text(id)) is not paused")
        }
        let pauseSpan = max(0, now - pausedAt)
        let awaySeconds: Double
        if keepAwayTime {
            awaySeconds = 0
        } else {
            // Running time between going idle and the pause, never more than the timer had run.
            let ranWhileAway = min(max(0, pausedAt - idleSince), max(0, timer.position(at: pausedAt)))
            timer.pausedTotal += pauseSpan + ranWhileAway
            awaySeconds = pauseSpan + ranWhileAway
        }
        timer.pausedAt = nil
        return (store(activity: &activity, timer: timer, now: now), awaySeconds)
    }
}
