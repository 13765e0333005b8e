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

    /// A start by push was applied: `PushReceived` at once; the receipt carries the new
    /// activity's update token (`input-push-token`), as an app would send it to its server on
    /// iOS, and is therefore held until the broker confirmed that token's subscription.
    func pushStarted(id: String, topic: String, message: APSMessage) {
        emit("PushReceived", [.string(id), .string(message.event.rawValue), .boolean(true), .string("")])
        guard let push, let route = push.topics.route(of: topic) else { return }
        var receipt = PushReceipt.outcome(route, timestamp: message.timestamp, applied: true, reason: "",
                                          event: message.event.rawValue, activity: id, digest: push.handlingDigest)
        let receiptTopic = push.topics.receipt(of: route)
        guard let entry = push.registry.activities[id], let token = entry.token else {
            push.bridge.publishReceipt(topic: receiptTopic, json: receipt.json)
            return
        }
        guard entry.announced else {
            push.heldStartReceipts[id] = (receiptTopic, receipt)
            return
        }
        receipt.pushToken = token
        push.bridge.publishReceipt(topic: receiptTopic, json: receipt.json)
    }

    /// The token of an activity started by push was confirmed: its start receipt goes out now
    /// (without a token when the activity ended before the broker confirmed it).
    func sendHeldStartReceipt(id: String, token: String?) {
        guard let push, var held = push.heldStartReceipts.removeValue(forKey: id) else { return }
        held.receipt.pushToken = token
        push.bridge.publishReceipt(topic: held.topic, json: held.receipt.json)
    }

    /// Tells the sender that `token` is dead (APNs's `Unregistered`): its activity ended.
    func sendUnregisteredReceipt(id: String, token: String, why: String) {
        guard let push else { return }
        let receipt = PushReceipt.unregistered(activity: id, at: clock.now, why: why)
        push.bridge.publishReceipt(topic: push.topics.receipt(of: .activity(token: token)), json: receipt.json)
    }
}
