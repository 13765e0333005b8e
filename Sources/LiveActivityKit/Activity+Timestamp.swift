/// ActivityKit's timestamped update and end (iOS 17.2): a call stamped no later than one already
/// applied is ignored. Differs: the order is kept per `Activity` object in this process (the
/// daemon orders bus calls by arrival; its push payloads carry their own timestamps).
extension Activity {
    public func update(_ content: ActivityContent<ContentState>, alertConfiguration: AlertConfiguration? = nil,
                       timestamp: Date) async {
        guard accepts(timestamp: timestamp) else { return }
        await update(content, alertConfiguration: alertConfiguration)
    }

    public func end(_ content: ActivityContent<ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default,
                    timestamp: Date) async {
        guard accepts(timestamp: timestamp) else { return }
        await end(content, dismissalPolicy: dismissalPolicy)
    }
}
