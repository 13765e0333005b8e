import DBus
import Push

/// Delivery receipts: what became of each push message goes to the bus (`PushReceived`) and,
/// as a `PushReceipt`, back to the sender on the receipt topic of the message's topic, so a
/// server learns what APNs would have told it. An activity's end says its token is
/// unregistered. Receipts carry no content-state and go only under this desktop's prefix.
extension PushCoordinator {
    /// Says what became of the message being handled, for activity `id`: the signal and the receipt.
    func outcome(id: String, event: String, applied: Bool, reason: String, topic: String, message: APSMessage?) {
        hooks.emit("PushReceived", [.string(id), .string(event), .boolean(applied), .string(reason)])
        running?.publishOutcome(topic: topic, timestamp: message?.timestamp, applied: applied, reason: reason, event: event, activity: id)
    }

    /// A start by push was applied: `PushReceived` at once; the receipt carries the new
    /// activity's update token (`input-push-token`), as an app would send it to its server on
    /// iOS, and is therefore held until the broker confirmed that token's subscription.
    func started(id: String, topic: String, message: APSMessage) {
        hooks.emit("PushReceived", [.string(id), .string(message.event.rawValue), .boolean(true), .string("")])
        running?.publishStarted(id: id, topic: topic, timestamp: message.timestamp, event: message.event.rawValue)
    }

    /// Tells the sender that `token` is dead (APNs's `Unregistered`): its activity ended.
    func sendUnregisteredReceipt(id: String, token: String, why: String) {
        running?.publishUnregistered(id: id, token: token, at: environment.clock.now, why: why)
    }
}
