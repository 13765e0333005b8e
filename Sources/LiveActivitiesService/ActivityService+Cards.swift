import ActivityModel
import DBus
import Notifications

/// The card of each activity (its notification) and what its buttons do.
extension ActivityService {
    /// Sends the card when what it shows changed, or when an alert must pop it up.
    func showCard(_ snapshot: ActivitySnapshot, alert: Alert?) {
        guard let presenter, registry.enabled else { return }
        let id = snapshot.activity.id.rawValue
        var card = cardBesideJob(Self.card(for: snapshot, kind: catalog.kinds[snapshot.activity.kind]), id: id)
        let now = clock()
        if let alert {
            let until = now + Self.alertHoldSeconds
            heldAlerts[id] = HeldAlert(title: alert.title, body: alert.body, until: until)
            // When the hold ends, the card shows the live text again even if nothing ticks.
            loop.addTimer(at: until + 0.01) { [weak self] in
                guard let self, let held = self.heldAlerts[id], held.until <= self.clock() else { return }
                self.refresh(id, alert: nil, now: self.clock())
            }
        } else if !snapshot.activity.status.isLive {
            heldAlerts[id] = nil  // the final card shows how it ended, not an earlier alert
        }
        if let held = heldAlerts[id] {
            if held.until > now || alert != nil {
                card.quiet = false  // a quiet (low urgency) replace would take the alert's popup down (Plasma)
                if !held.title.isEmpty { card.title = held.title }
                if !held.body.isEmpty { card.body = held.body + "\n" + card.body }
            } else {
                heldAlerts[id] = nil
            }
        }
        if let alert {
            lastCards[id] = card
            presenter.show(id: id, card: card, alert: CardAlert(soundName: alert.sound))
            return
        }
        if heldAlerts[id] == nil, jobs?.covers(id) == true {
            withdrawCard(id)
            return
        }
        guard lastCards[id] != card else { return }
        lastCards[id] = card
        presenter.show(id: id, card: card, alert: nil)
    }

    /// How long an alert's title and body stay on the card: the live text keeps updating below
    /// them, and a routine update in that time (a ticking timer) must not wipe the alert out.
    static let alertHoldSeconds = 15.0

    /// The card of a snapshot: the rendered text, the kind's icon, progress at the whole percent
    /// it shows (so a timer's continuous progress does not make a new card), buttons while live.
    static func card(for snapshot: ActivitySnapshot, kind: Kind?) -> Card {
        let rendered = snapshot.rendered
        let live = snapshot.activity.status.isLive
        return Card(appName: snapshot.activity.appName ?? kind?.displayName ?? "Live Activities",
                    title: rendered.title, body: rendered.body,
                    iconName: rendered.iconName.isEmpty ? nil : rendered.iconName,
                    progress: rendered.progressPercent.map { Double($0) / 100 },
                    buttons: live ? rendered.buttons.map { CardButton(key: $0.key, label: $0.label) } : [],
                    category: "x-liveactivities", desktopEntry: nil)
    }

    /// A card button was pressed (reported on the presenter's thread, posted to the loop):
    /// built-in actions act on the activity; every action is announced with ActionInvoked.
    func handleAction(id: String, key: String) {
        guard registry.activity(id) != nil else { return }
        let now = clock()
        let before = registry
        do {
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
}

/// What the notification side reports back: a new server, a card's notification id.
extension ActivityService {
    /// A (new) notification server: its profile may change how text renders (GNOME shows no
    /// seconds), so every activity is re-read and the tick timer re-armed.
    func serverChanged() {
        publishNow()
        let now = clock()
        if let info = presenter?.serverInfo { Log.info("notification server: \(info.name) \(info.version)") }
        for activity in registry.activities { refresh(activity.id.rawValue, alert: nil, now: now) }
        refreshManager()
        reschedule(now: now)
    }

    /// Remembers which notification shows an activity, so that a restarted daemon replaces
    /// that card instead of adding a second one.
    func notificationIDChanged(id: String, notificationID: UInt32) {
        guard registry.activity(id) != nil, notificationIDs[id] != notificationID else { return }
        notificationIDs[id] = notificationID
        persistQuietly([.notificationID(activity: id, number: notificationID)])
    }

    /// Hands the saved notification ids to the presenter before it shows anything.
    func adoptSavedCards() {
        for (id, notificationID) in notificationIDs { presenter?.adopt(id: id, notificationID: notificationID) }
    }
}

/// An alert's text, kept on the card until `until` (unix seconds).
struct HeldAlert {
    let title: String
    let body: String
    let until: Double
}
