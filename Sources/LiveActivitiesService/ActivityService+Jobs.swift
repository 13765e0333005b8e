import ActivityModel
import DBus
import Notifications

/// The KDE job of each activity with progress (see `KDEJobMirror`), and what its buttons do.
///
/// While an activity has a job (or one is being requested), the job is its one view: a
/// popup with a real progress bar and a cancel button. The card is withdrawn, so Plasma never
/// shows the same activity as two popups. An alert still comes as a card (with its buttons,
/// without progress, at normal urgency) and stays for `alertHoldSeconds`; the card is
/// withdrawn again at the next routine update after that. Without a job (no progress, the
/// activity ended, no job server) the card is as everywhere else.
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

    /// The card as it shows beside a job (an alert): no progress, quiet routine updates.
    func cardBesideJob(_ card: Card, id: String) -> Card {
        guard jobs?.covers(id) == true else { return card }
        var quiet = card
        quiet.progress = nil
        quiet.quiet = true
        return quiet
    }

    /// Takes the card of `id` off the screen while its job shows the activity.
    func withdrawCard(_ id: String) {
        guard lastCards.removeValue(forKey: id) != nil else { return }
        presenter?.close(id: id)
    }

    /// The job's cancel button: the activity ends with reason `cancelled`.
    private func endFromJob(id: String) {
        let now = clock()
        let before = registry
        do {
            let events = try registry.end(id: id, state: [:], options: EndOptions(reason: .cancelled),
                                          now: now)
            try commit(events, before: before, now: now)
        } catch let error as ActivityError {
            Log.warning("KDE job cancel of \(id): \(error.message)")
        } catch {
            Log.warning("KDE job cancel of \(id): \(error)")
        }
    }
}
