import ActivityModel
import DBus

/// What the notification side reports back (on the presenter's thread, posted to the loop): a
/// card button, a card the user closed, a new server, a card's notification id.
extension ActivityService {
    /// A card button was pressed: built-in actions act on the activity; every action is
    /// announced with ActionInvoked.
    func handleAction(id: String, key: String) {
        guard registry.activity(id) != nil else { return }
        let now = clock.now
        let before = registry
        do {
            if try chooseAwayTime(id: id, key: key, now: now) { return }
            let events = try registry.invoke(action: key, id: id, now: now)
            try commit(events, before: before, now: now)
        } catch let error as ActivityError {
            Log.warning("card action \(key) on \(id): \(error.message)")
        } catch {
            Log.warning("card action \(key) on \(id): \(error)")
        }
    }

    /// The user closed the card: the activity goes on; the card returns with the next alert.
    /// The presenter keeps it closed until then; nothing else changes.
    func handleClosedByUser(id: String) {
        Log.info("card of \(id) closed by the user; the activity goes on")
    }

    /// A (new) notification server: its profile may change how the card renders (GNOME shows
    /// no seconds), so every card is re-read; the bus's values stay as they are.
    func serverChanged() {
        publisher.publishNow()
        if let info = publisher.serverInfo { Log.info("notification server: \(info.name) \(info.version)") }
        publisher.refreshAll(now: clock.now)
    }

    /// Remembers which notification shows an activity, so that a restarted daemon replaces
    /// that card instead of adding a second one (saved with the next fsync batch).
    func notificationIDChanged(id: String, notificationID: UInt32) {
        rememberNotificationID(notificationID, of: id)
    }
}
