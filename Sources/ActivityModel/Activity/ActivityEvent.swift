/// Something that happened to an activity, for the daemon to fan out to signals, the card,
/// the compact view, the store and the history.
///
/// Order within one call: `started` / `updated` first, then `statusChanged`, then `alert`
/// (an Update's alert options). An ending comes as `statusChanged(ended)`, `ended` (carrying
/// the history entry), then its alert if any (a timer running out), then, when dismissed at
/// once, `statusChanged(dismissed)` and `dismissed` last. A tick's phase-change alert comes
/// before the ending it may lead to. Every status change, `ended` and `dismissed` included,
/// also comes as `statusChanged`.
public enum ActivityEvent: Equatable, Sendable {
    /// A new activity (`ActivityStarted`); the card should appear.
    case started(ActivityID, kind: String)
    /// State, options or timer changed (`ActivityUpdated`, PropertiesChanged, card replaced).
    case updated(ActivityID)
    /// The status changed (`StatusChanged`).
    case statusChanged(ActivityID, ActivityStatus)
    /// Pop the card up again with this alert (an Update alert, a phase change, a timer run out).
    case alert(ActivityID, Alert)
    /// The activity ended (`ActivityEnded`); append `history` to the history file.
    case ended(ActivityID, reason: EndReason, history: HistoryEntry)
    /// The final card closes and the activity leaves the registry (unregister its object).
    case dismissed(ActivityID)
    /// Only the rendered text changed, on a tick (PropertiesChanged and a quiet card replace).
    case rendered(ActivityID)
    /// A card button was pressed (`ActionInvoked`).
    case actionInvoked(ActivityID, action: String)

    /// The activity the event is about.
    public var activityID: ActivityID {
        switch self {
        case .started(let id, _), .updated(let id), .statusChanged(let id, _), .alert(let id, _),
             .ended(let id, _, _), .dismissed(let id), .rendered(let id), .actionInvoked(let id, _):
            return id
        }
    }
}
