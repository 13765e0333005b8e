/// A scheduled update that could not be applied when it came due (its kind changed since, or
/// the state grew past the payload limit). The tick drops it rather than fail; the model has
/// no log, so it keeps this record for the daemon to say so, with the activity and the error.
public struct DroppedScheduledUpdate: Equatable, Sendable {
    /// The activity the update was for.
    public let id: ActivityID
    /// When it was due.
    public let at: UnixTime
    /// Why the Update it stands for was refused.
    public let error: ActivityError
}
