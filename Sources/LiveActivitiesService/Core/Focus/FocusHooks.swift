import ActivityModel
import DBus
import Notifications

/// What focus asks the core through (as push's `PushHooks`): what it reads of the model, the
/// two changes it makes (a pause while the user is away, a resume with the choice about the
/// time away) and what the world is told. It exists so that `FocusCoordinator` holds values and
/// closures, never a pointer to the service.
struct FocusHooks {
    /// The activities the registry holds now.
    let activities: () -> [Activity]
    /// Activity `id`, if the registry holds it.
    let activity: (_ id: String) -> Activity?
    /// The kinds now.
    let catalog: () -> KindCatalog
    /// Pauses activity `id` at `now`, as a call would (written before it counts).
    let pause: (_ id: String, _ now: Double) throws(DBusError) -> Void
    /// Resumes activity `id`, paused since `idleSince`, keeping or discarding the time away, as
    /// the button `action` pressed at `now`; the seconds discarded (nil: the activity is gone).
    let resumeAfterAway: (_ id: String, _ idleSince: Double, _ keepAwayTime: Bool, _ action: String,
                          _ now: Double) throws(DBusError) -> Double?
    /// Publishes every queued event now.
    let publishNow: () -> Void
    /// Announces `events` (the alerts of a user coming back) at `now`.
    let announce: (_ events: [ActivityEvent], _ now: Double) -> Void
    /// The notification server in use (nil: none known).
    let serverInfo: () -> ServerInfo?
}
