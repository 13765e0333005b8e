/// Update's options `cancel-at` (unix seconds) and `cancel-all` (true): the call cancels
/// scheduled updates and does nothing else, so it takes no state and no other option.
struct ScheduledUpdateCancel {
    /// Nil: every scheduled update.
    let at: Double?
}
