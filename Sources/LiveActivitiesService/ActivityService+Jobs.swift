import ActivityModel
import DBus
import Notifications

/// The KDE job of each activity with progress (see `KDEJobMirror`), and what its buttons do.
///
/// While an activity has a job, the job is its one popup with a progress bar: the card stays
/// (with its buttons, for the notification history) but carries no progress and goes out at
/// urgency low, which Plasma does not pop up. An alert still pops the card up.
extension ActivityService {
    /// Connects `mirror` to this service and starts it.
    func attachJobs(_ mirror: KDEJobMirror) {
        jobs = mirror
        mirror.onCancel = { [unowned self] id in self.endFromJob(id: id) }
        mirror.onJobChanged = { [unowned self] id in self.refresh(id, alert: nil, now: self.clock()) }
        mirror.start()
    }

    /// Tells the mirror what the job of `snapshot` should show now.
    func updateJob(_ snapshot: ActivitySnapshot) {
        guard let jobs else { return }
        let rendered = snapshot.rendered
        let status = snapshot.activity.status
        let content = registry.enabled
            ? KDEJobContent.of(title: rendered.title, body: rendered.body, progress: rendered.progress,
                               live: status.isLive, paused: status == .paused)
            : nil
        jobs.update(id: snapshot.activity.id.rawValue, content: content)
    }

    /// The card as it shows while the activity has a job: no progress, quiet routine updates.
    func cardBesideJob(_ card: Card, id: String) -> Card {
        guard jobs?.hasJob(id) == true else { return card }
        var quiet = card
        quiet.progress = nil
        quiet.quiet = true
        return quiet
    }

    /// The job's cancel button: the activity ends with reason `cancelled`.
    private func endFromJob(id: String) {
        let now = clock()
        do {
            let events = try registry.end(id: id, state: [:], options: EndOptions(reason: EndReason.cancelled.rawValue),
                                          now: now)
            commit(events, now: now)
        } catch {
            Log.warning("KDE job cancel of \(id): \(error.message)")
        }
    }
}
