import ActivityModel

/// The reads of one moment (a call, a round, a tick): the activities at that moment, each
/// rendered at most once (`RoundView`), with the push token and the away-time buttons the
/// service adds to what the model renders.
extension ActivityService {
    /// The activities at `now` (the clock when nil), for the reads of one call or round.
    func readView(at now: Double? = nil) -> RoundView {
        let moment = now ?? environment.clock.now
        return readView(at: moment, utcOffset: environment.clock.utcOffset(at: moment))
    }

    /// The activities at `now` in a zone already read (a tick's).
    func readView(at now: Double, utcOffset: Double) -> RoundView {
        RoundView(now: now, utcOffset: utcOffset, registry: registry,
                  pushToken: { [unowned self] id in push.announcedToken(id) },
                  extraButtons: focus.support == nil ? nil : { [focus] id in focus.awayButtons(id) },
                  lockScreen: settings.lockScreenPrivacy)
    }

    /// The activity and its texts at `now`.
    func snapshot(_ id: String, now: Double) -> ActivitySnapshot? {
        readView(at: now).snapshot(id)
    }
}
