import ActivityModel
import DBus
import KDEJobs
import Notifications

/// The KDE job of each activity with progress (see `KDEJobMirror`), and what its buttons do.
///
/// While an activity has a job (or one is being requested), the job is its one view: a
/// popup with a real progress bar and a cancel button. The card is withdrawn, so Plasma never
/// shows the same activity as two popups. An alert still comes as a card (with its buttons,
/// without progress, at normal urgency) and stays for `AlertHold.seconds`; the card is
/// withdrawn again at the next routine update after that (`CardComposer`). Without a job (no
/// progress, the activity ended, no job server) the card is as everywhere else.
extension ActivityService {
    /// Connects `mirror` to this service's publisher and starts it.
    func attachJobs(_ mirror: KDEJobMirror) {
        // The job's cancel button: the activity ends with reason `cancelled`.
        publisher.attachJobs(mirror) { [weak self] id in
            guard let self else { return }
            do throws(DBusError) {
                try self.transact { (now: Double) throws(ActivityError) in
                    ((), try self.registry.end(id: id, state: [:], options: EndOptions(reason: .cancelled), now: now))
                }
            } catch {
                Log.warning("KDE job cancel of \(id): \(error.message)")
            }
        }
    }
}
