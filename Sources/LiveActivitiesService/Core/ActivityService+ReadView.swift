import ActivityModel

/// The reads of one moment (a call, a round, a tick): the activities at that moment, each
/// rendered at most once (`RoundView`), with the push token and the away-time buttons the
/// service adds to what the model renders.
extension ActivityService {
    /// The activities at `now` (the clock when nil), for the reads of one call or round, in
    /// the zone `utcOffset` when one was already read (a tick's).
    func readView(at now: Double? = nil, utcOffset: Double? = nil) -> RoundView {
        let moment = now ?? environment.clock.now
        return RoundView(now: moment, utcOffset: utcOffset ?? environment.clock.utcOffset(at: moment), registry: registry,
                         pushToken: { [push] id in push.announcedToken(id) },
                         extraButtons: focus.support == nil ? nil : { [focus] id in focus.awayButtons(id) },
                         lockScreen: settings.lockScreenPrivacy, styledRenders: scheduler.styledRenders)
    }
}
