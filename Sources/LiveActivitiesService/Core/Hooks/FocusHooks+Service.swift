import ActivityModel
import DBus

/// How focus reaches the core (`FocusHooks`): its pause and its resume with the choice about
/// the time away are changes like a call's (`transact`), and what it announces goes out through
/// the publisher.
extension FocusHooks {
    /// The closures focus asks `link`'s service through (held weakly).
    init(serving link: ServiceLink) {
        self.init(activities: { [link] in link.service?.registry.activities ?? [] },
                  activity: { [link] id in link.service?.registry.activity(id) },
                  catalog: { [link] in link.service?.catalog ?? KindCatalog() },
                  pause: { [link] id, now throws(DBusError) in
                      guard let service = link.service else { return }
                      try service.transact(at: now) { (now: Double) throws(ActivityError) in
                          ((), try service.registry.pause(id: id, now: now))
                      }
                  },
                  resumeAfterAway: { [link] id, idleSince, keep, action, now throws(DBusError) in
                      guard let service = link.service else { return nil }
                      return try service.transact(at: now) { (now: Double) throws(ActivityError) -> (result: Double?, events: [ActivityEvent]) in
                          let resumed = try service.registry.resumeAfterAway(id: id, idleSince: idleSince, keepAwayTime: keep, now: now)
                          guard let activityID = service.registry.activity(id)?.id else { return (nil, []) }
                          return (resumed.awaySeconds, [.actionInvoked(activityID, action: action)] + resumed.events)
                      }
                  },
                  publishNow: { [link] in link.service?.publishNow() },
                  announce: { [link] events, now in
                      guard let service = link.service else { return }
                      service.announce(events, in: service.readView(at: now))
                  },
                  serverInfo: { [link] in link.service?.publisher.serverInfo })
    }
}
