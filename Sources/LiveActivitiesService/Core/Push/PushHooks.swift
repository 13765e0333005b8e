import ActivityModel
import DBus

/// What push asks the core through (as the publisher's `PublisherHooks`): the calls a message
/// becomes, what it reads of the model, and what the world is told. It exists so that
/// `PushCoordinator` holds values and closures, never a pointer to the service.
struct PushHooks {
    /// Start, Update and End, decoded: the same path as the bus's calls.
    let start: (StartRequest) throws(DBusError) -> String
    let update: (_ id: String, UpdateRequest) throws(DBusError) -> Void
    let end: (_ id: String, EndRequest) throws(DBusError) -> Void
    /// The kinds' names now.
    let kindNames: () -> [String]
    /// The input limits (a message's size).
    let limits: () -> Limits
    /// Whether activity `id` still holds its place (a push entry of one that does not is dropped at start).
    let holdsPlace: (_ id: String) -> Bool
    /// Emits a manager signal (`PushReceived`).
    let emit: (_ name: String, _ body: [DBusValue]) -> Void
    /// The `PushToken` of activity `id` changed: its object is read again.
    let tokenAnnounced: (_ id: String) -> Void
}
