/// The registry's activities by id, able to undo one change: while a change is open, the
/// first write to each id keeps what was there before, so a change the daemon cannot persist
/// is taken back by restoring those few entries. That replaces copying the whole registry
/// before every call (with 32 activities, a copy of 32 records and of the render cache).
struct UndoableStorage: Sendable {
    private var byID: [ActivityID: Activity] = [:]
    /// The entries as they were when the open change began (nil inside: there was none).
    private var previous: [ActivityID: Activity?]?

    subscript(id: ActivityID) -> Activity? {
        get { byID[id] }
        set {
            if previous != nil, previous?[id] == nil { previous?[id] = .some(byID[id]) }
            byID[id] = newValue
        }
    }

    /// Every activity, in no order.
    var values: Dictionary<ActivityID, Activity>.Values { byID.values }

    /// Starts keeping what each write replaces.
    mutating func beginChange() { previous = [:] }

    /// Forgets what the open change replaced (it is kept).
    mutating func endChange() { previous = nil }

    /// Puts back what the open change replaced; returns the ids it touched.
    mutating func rollBack() -> [ActivityID] {
        guard let kept = previous else { return [] }
        previous = nil
        for (id, activity) in kept { byID[id] = activity }
        return Array(kept.keys)
    }
}
