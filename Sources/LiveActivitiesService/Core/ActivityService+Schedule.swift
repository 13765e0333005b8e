import ActivityModel
import DBus

/// Update with `at`, `cancel-at` or `cancel-all`: the timeline of an activity changes (or, for
/// an `at` already passed, the update applies now). Fsynced before the reply, like a Start:
/// a scheduled update is a promise about the future, and rare.
extension ActivityService {
    func schedule(id: String, _ request: UpdateRequest) throws(DBusError) {
        try transact { (now: Double) throws(ActivityError) in
            if let cancel = request.cancel {
                return ((), try registry.cancelScheduledUpdates(id: id, at: cancel.at))
            }
            return ((), try registry.scheduleUpdate(id: id, state: request.state, options: request.options,
                                                    at: request.at ?? now, now: now))
        }
    }
}
