import ActivityModel

/// Scheduled updates that could not be applied when due are only logged: kept next to the
/// service because the model has no log.
extension ActivityRegistry {
    /// Logs each scheduled update the last tick dropped (the activity, when it was due, the
    /// error's name and message): a user who scheduled it otherwise never learns why it did
    /// not happen.
    mutating func logDroppedScheduledUpdates() {
        for dropped in takeDroppedScheduledUpdates() {
            Log.warning("activity \(dropped.id.rawValue): the update scheduled at \(Int64(saturating: dropped.at)) "
                        + "was dropped when due: \(dropped.error.description)")
        }
    }
}
