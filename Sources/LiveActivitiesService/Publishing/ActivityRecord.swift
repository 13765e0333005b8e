import DBus
import Notifications

/// What the daemon keeps about one activity besides the model's own record: whether its
/// object is on the bus, the property values last announced, the card last sent and the alert
/// held on it, and the id the notification server gave its card. One record per activity, so
/// that removing an activity is one removal and nothing is left behind in a side table.
struct ActivityRecord {
    /// The activity's object is exported (it is, from Start until its dismissal).
    var isExported = false
    /// The Activity interface's values as last announced, in `ActivityProperty.all`'s order
    /// (empty: none yet), to emit only what changed. An array, not a dictionary by name: a
    /// tick compares all of them, and hashing every name twice a tick was a cost of its own.
    var publishedProperties: [DBusValue] = []
    /// The card the sink got last (nil: none on screen, or withdrawn beside a KDE job).
    var lastCard: Card?
    /// The last alert's text while it stays on the card.
    var hold: AlertHold?
    /// The server's id for the card, saved so a restarted daemon replaces it in place.
    var notificationID: UInt32?
    /// When the sink last got this card (monotonic seconds; `Publisher+CardPacing`).
    var cardSentAt: Double?
    /// A routine card the sink has not got yet, the latest one winning: it waits for its slot
    /// (`slotWakeArmed`) or for the activity's next tick.
    var heldCard: Card?
    /// A wake-up is armed at the card's slot.
    var slotWakeArmed = false
}
