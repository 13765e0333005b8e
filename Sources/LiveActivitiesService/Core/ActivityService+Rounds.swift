import ActivityModel
import Notifications

/// What the core does around each publishing round, so that the publisher is handed values
/// and never calls back: a round's events are taken from the publisher and published at one
/// moment, push hears of each activity that ended, and once the round settles the manager's
/// properties, the one timer (`+Manager`) and focus (`FocusCoordinator`) follow. The publisher's own
/// timers reach the core only through `PublisherHooks` (`PublisherHooks+Service`).
extension ActivityService {
    /// Queues a change's events for the next publishing round (a started activity's object is
    /// exported at once) and asks the loop for the round, paced under a flood (`RoundQueue`).
    func publishLater(_ events: [ActivityEvent]) {
        publisher.exportStarted(events)
        let clock = environment.clock
        guard let delay = scheduler.rounds.add(events, now: clock.monotonicNow, interval: publisher.publishInterval) else { return }
        if delay > 0 {
            clock.wake(afterSeconds: delay) { [weak self] in self?.publishNow() }
        } else {
            environment.loop.runSoon { [weak self] in self?.publishNow() }
        }
    }

    /// Publishes every queued event now, at one moment (also called first by anything that
    /// publishes directly, such as a tick, so the order of events is kept); the round settles
    /// at once unless settling is paced under a flood (`Publisher.settlesNow`).
    func publishNow() {
        let events = scheduler.rounds.take()
        guard !events.isEmpty else { return }
        let view = readView()
        announce(events, in: view)
        if publisher.settlesNow() { settle(in: view) }
    }

    /// The model's events as signals, objects, cards and jobs (`Publisher.apply`); push first
    /// drops the token of each activity that ended, so the round shows it gone.
    func announce(_ events: [ActivityEvent], in view: RoundView) {
        for case .ended(let id, _, _) in events { push.activityEnded(id.rawValue) }
        publisher.apply(events, in: view)
    }

    /// What depends on every activity, from the renders of `view` (a tick, a publishing round,
    /// a new server, new kinds): the manager's properties, the tray and the media player, then
    /// the timer and focus.
    func settle(in view: RoundView) {
        publisher.refreshManager(in: view, storageStatus: storageStatus)
        reschedule(in: view)
        focus.settle(now: view.now)
    }

    /// Every activity re-read now (a new server, new kinds), then what depends on every
    /// activity: one render each.
    func refreshAll() {
        let view = readView()
        publisher.refreshAll(in: view)
        settle(in: view)
    }

    /// Announces a change of `StorageStatus` (a write failed, or works again) at once.
    func publishStorageStatus() {
        guard publisher.publishedManager["StorageStatus"] != .string(storageStatus) else { return }
        publisher.refreshManager(in: readView(), storageStatus: storageStatus)
    }
}
