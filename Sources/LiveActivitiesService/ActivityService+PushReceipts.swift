import DBus
import Push

/// Delivery receipts: what became of each push message goes to the bus (`PushReceived`) and,
/// as a `PushReceipt`, back to the sender on the receipt topic of the message's topic, so a
/// server learns what APNs would have told it. An activity's end says its token is
/// unregistered. Receipts carry no content-state and go only under this desktop's prefix.
extension ActivityService {
    /// Says what became of the message being handled, for activity `id`: the signal and the receipt.
    func pushOutcome(id: String, event: String, applied: Bool, reason: String, topic: String, message: APSMessage?) {
        emit("PushReceived", [.string(id), .string(event), .boolean(applied), .string(reason)])
        guard let push else { return }
        guard let route = push.topics.route(of: topic) else { return }
        let receipt = PushReceipt.outcome(route, timestamp: message?.timestamp, applied: applied, reason: reason,
                                          event: event, activity: id, digest: push.handlingDigest)
        push.bridge.publishReceipt(topic: push.topics.receipt(of: route), json: receipt.json)
    }

    /// Tells the sender that `token` is dead (APNs's `Unregistered`): its activity ended.
    func sendUnregisteredReceipt(id: String, token: String, why: String) {
        guard let push else { return }
        let receipt = PushReceipt.unregistered(activity: id, at: clock.now, why: why)
        push.bridge.publishReceipt(topic: push.topics.receipt(of: .activity(token: token)), json: receipt.json)
    }
}
