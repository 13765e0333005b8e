import ActivityModel

extension ActivityService {
    /// Logs each scheduled update the last tick dropped (the activity, when it was due, the
    /// error's name and message): a user who scheduled it otherwise never learns why it did
    /// not happen.
    func logDroppedScheduledUpdates() {
        for dropped in registry.takeDroppedScheduledUpdates() {
            Log.warning("activity \(dropped.id.rawValue): the update scheduled at \(Int64(saturating: dropped.at)) "
                        + "was dropped when due: \(dropped.error.description)")
        }
    }
}
