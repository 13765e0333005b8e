import ActivityModel
import DBus

/// How focus reaches the core (`FocusHooks`): its pause and its resume with the choice about
/// the time away are changes like a call's (`transact`), and what it announces goes out through
/// the publisher.
extension ActivityService {
    /// The closures focus asks through (each holds the service weakly).
    var focusHooks: FocusHooks {
        FocusHooks(activities: { [weak self] in self?.registry.activities ?? [] },
                   activity: { [weak self] id in self?.registry.activity(id) },
                   catalog: { [weak self] in self?.catalog ?? KindCatalog() },
                   pause: { [weak self] id, now throws(DBusError) in
                       guard let self else { return }
                       try self.transact(at: now) { (now: Double) throws(ActivityError) in ((), try self.registry.pause(id: id, now: now)) }
                   },
                   resumeAfterAway: { [weak self] id, idleSince, keep, action, now throws(DBusError) in
                       guard let self else { return nil }
                       return try self.transact(at: now) { (now: Double) throws(ActivityError) -> (result: Double?, events: [ActivityEvent]) in
                           let resumed = try self.registry.resumeAfterAway(id: id, idleSince: idleSince, keepAwayTime: keep, now: now)
                           guard let activityID = self.registry.activity(id)?.id else { return (nil, []) }
                           return (resumed.awaySeconds, [.actionInvoked(activityID, action: action)] + resumed.events)
                       }
                   },
                   publishNow: { [weak self] in self?.publishNow() },
                   announce: { [weak self] events, now in
                       guard let self else { return }
                       self.announce(events, in: self.readView(at: now))
                   },
                   serverInfo: { [weak self] in self?.publisher.serverInfo })
    }
}
