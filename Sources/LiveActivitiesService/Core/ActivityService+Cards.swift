import ActivityModel
import DBus

/// What the notification side reports back (on the presenter's thread, posted to the loop): a
/// card button, a card the user closed, a new server, a card's notification id.
extension ActivityService {
    /// A card button was pressed: pressed like a panel's (`invokeAction`, the one button
    /// path), so a card that lags behind its activity cannot do what the activity no longer
    /// offers. A press on the card of an activity already gone is ignored, as the card is.
    func handleAction(id: String, key: String) {
        guard registry.activity(id) != nil else { return }
        do throws(DBusError) {
            try invokeAction(id: id, action: key)
        } catch {
            Log.warning("card action \(key) on \(id): \(error.message)")
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
        publishNow()
        if let info = publisher.serverInfo { Log.info("notification server: \(info.name) \(info.version)") }
        refreshAll()
    }

    /// Remembers which notification shows an activity, so that a restarted daemon replaces
    /// that card instead of adding a second one: appended to the journal at once, fsynced with
    /// the next batch, not on its own.
    func notificationIDChanged(id: String, notificationID: UInt32) {
        guard registry.activity(id) != nil, publisher.remember(notificationID: notificationID, of: id) else { return }
        durability.persistQuietly([.notificationID(activity: id, number: notificationID)], durable: false) { fullState }
        durability.syncSoon()
    }
}
