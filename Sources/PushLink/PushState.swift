import Persistence
import Push
import ServiceSupport

/// Push while the daemon runs, as one type with its own state: the broker bridge, the token
/// registry and its file (`push.json`), the receipts held for tokens not yet confirmed, and
/// the counts of messages by outcome. The service asks it for tokens and tells it what
/// happened to activities and messages; nothing outside reads or changes its registry.
/// Exists only when `push-broker` is set (`PushCoordinator.running` is nil otherwise: no
/// thread, no cost). Lives on the event loop's thread.
package final class PushState {
    /// Messages by outcome since the daemon started (rejections are also logged one by one).
    struct Counts {
        var received = 0
        var applied = 0
        var ignored = 0
        var rejected = 0
    }

    private let bridge: PushBridge
    private var registry: PushRegistry
    private let path: String
    /// Read by tests and logs; changed only here.
    private(set) var counts = Counts()
    /// Receipts of push-to-start messages whose activity got an update token, by activity id:
    /// held until the broker confirmed that token, so the sender that reads it can publish at once.
    private var heldStartReceipts: [String: (topic: String, receipt: PushReceipt)] = [:]
    /// The digest of the message being handled (nil when it was too large to read), for its receipts.
    private var handlingDigest: String?
    /// Whether a save of the registry is already scheduled (timestamps are saved once a second).
    private var savePending = false
    /// Whether the last save failed: then `push.json` may lack tokens that are only in memory,
    /// and none of them is handed out before a save succeeds.
    private var lastSaveFailed = false

    /// Takes over `bridge` and `registry` (loaded and tidied by the caller), saves the
    /// registry and subscribes every topic it names.
    package init(bridge: PushBridge, registry: PushRegistry, path: String) {
        self.bridge = bridge
        self.registry = registry
        self.path = path
        save()
        for topic in registry.topics(bridge.topics) { bridge.want(topic) }
    }

    package var topics: PushTopics { bridge.topics }
    /// The bridge's status: `connecting`, `connected` or `error: …`.
    package var status: String { bridge.status }

    // MARK: Tokens and activities

    /// An activity's token once the broker confirmed its subscription, else "".
    package func announcedToken(of id: String) -> String {
        guard let entry = registry.activities[id], entry.announced else { return "" }
        return entry.token ?? ""
    }

    /// The stable push-to-start token of `kind`, subscribed. A new one (or any, while the last
    /// save failed) is handed out only once `push.json` holds it; else the save's error.
    package func startToken(kind: String) throws(AtomicFile.WriteError) -> String {
        let token = registry.startTokens[kind] ?? PushToken.make()
        let isNew = registry.startTokens[kind] == nil
        if isNew || lastSaveFailed {
            registry.startTokens[kind] = token
            do {
                try saveDurably()
            } catch {
                if isNew { registry.startTokens[kind] = nil }
                throw error
            }
        }
        bridge.want(topics.start(token))
        return token
    }

    /// A Start's push entry (a new token when `token`, the channel it follows), written to
    /// `push.json` and fsynced before the Start is committed; forgotten again when that fails.
    package func prepare(id: String, token: Bool, channel: String?) throws(AtomicFile.WriteError) {
        var entry = PushRegistry.ActivityEntry()
        if token { entry.token = PushToken.make() }
        entry.channel = channel
        registry.activities[id] = entry
        do {
            try saveDurably()
        } catch {
            registry.activities[id] = nil
            throw error
        }
    }

    /// After the Start was committed: its token and channel are subscribed.
    package func subscribe(id: String) {
        guard let entry = registry.activities[id] else { return }
        if let token = entry.token { bridge.want(topics.activity(token)) }
        if let channel = entry.channel { bridge.want(topics.channel(channel)) }
    }

    /// The Start could not be committed after all: its entry is forgotten again.
    package func forget(id: String) {
        guard registry.activities.removeValue(forKey: id) != nil else { return }
        save()
    }

    /// An activity ended: its entry goes, its token topic is unsubscribed, and its channel
    /// when nobody else follows it. Nil when it had no entry; else the token it had.
    package func ended(id: String) -> String?? {
        guard let entry = registry.activities.removeValue(forKey: id) else { return nil }
        save()
        if let token = entry.token { bridge.drop(topics.activity(token)) }
        if let channel = entry.channel, registry.followers(of: channel).isEmpty { bridge.drop(topics.channel(channel)) }
        return .some(entry.token)
    }

    /// The broker confirmed `topic`: when it is an activity's token not yet announced, the
    /// token is marked announced and saved; the activity and token are returned.
    package func confirmed(_ topic: String) -> (id: String, token: String)? {
        guard case .activity(let token)? = topics.route(of: topic), let id = registry.activityID(forToken: token),
              registry.activities[id]?.announced == false else { return nil }
        registry.activities[id]?.announced = true
        save()
        return (id, token)
    }

    // MARK: Saving

    /// Writes `push.json` now; a failure is logged (push goes on from memory).
    package func save() {
        do {
            try saveDurably()
        } catch {
            Log.error("push: cannot save \(path): \(error)")
        }
    }

    /// Saves within `delay` seconds of `clock` (once, however many ask meanwhile).
    package func saveSoon(clock: ServiceClock, delay: Double) {
        guard !savePending else { return }
        savePending = true
        clock.wake(afterSeconds: delay) { [weak self] in
            guard let self, self.savePending else { return }
            self.save()
        }
    }

    /// Writes `push.json` now and fsyncs it; throws when it could not be written, for a caller
    /// that must not acknowledge a token before it is durable.
    private func saveDurably() throws(AtomicFile.WriteError) {
        savePending = false
        do {
            try registry.save(path: path)
            lastSaveFailed = false
        } catch {
            lastSaveFailed = true
            throw error
        }
    }
}


/// What `PushState` keeps about messages: who a topic reaches, whether a message is new
/// (`PushRegistry+Identity`), the counts by outcome, and the receipts that go back to the
/// sender (a start's receipt is held until its activity's token is confirmed).
package extension PushState {
    /// A message arrived (its payload nil when too large to read): counted, and its digest
    /// kept for the receipts it leads to.
    func receive(payload: [UInt8]?) {
        counts.received += 1
        handlingDigest = payload.map(PushMessageDigest.of)
    }

    func activityID(forToken token: String) -> String? { registry.activityID(forToken: token) }
    func followers(of channel: String) -> [String] { registry.followers(of: channel) }
    func kind(forStartToken token: String) -> String? { registry.kind(forStartToken: token) }

    func verdict(activity id: String, timestamp: Double, digest: String) -> PushRegistry.Verdict {
        registry.verdict(activity: id, timestamp: timestamp, digest: digest)
    }

    func verdict(start kind: String, timestamp: Double, digest: String) -> PushRegistry.Verdict {
        registry.verdict(start: kind, timestamp: timestamp, digest: digest)
    }

    /// An update or end was applied to `id`: its identity is recorded (saved by the caller, at
    /// once or soon) and counted.
    func recordApplied(activity id: String, timestamp: Double, digest: String) {
        registry.applied(activity: id, timestamp: timestamp, digest: digest)
        counts.applied += 1
    }

    /// A start on `kind`'s token made activity `id`: recorded and saved at once, so a resend or
    /// a retained start after a restart starts nothing; counted.
    func recordStart(kind: String, id: String, timestamp: Double, digest: String) {
        registry.applied(start: kind, timestamp: timestamp, digest: digest)
        registry.activities[id, default: PushRegistry.ActivityEntry()].lastTimestamp = timestamp
        save()
        counts.applied += 1
    }

    func countIgnored() { counts.ignored += 1 }

    /// A message was refused: counted; returns its number and the rejections so far, for the log.
    func countRejected() -> (message: Int, rejected: Int) {
        counts.rejected += 1
        return (counts.received, counts.rejected)
    }

    // MARK: Receipts

    /// The receipt of the message being handled, for activity `id`, on the receipt topic of `topic`.
    func publishOutcome(topic: String, timestamp: Double?, applied: Bool, reason: String, event: String, activity id: String) {
        guard let route = topics.route(of: topic) else { return }
        let receipt = PushReceipt.outcome(route, timestamp: timestamp, applied: applied, reason: reason,
                                          event: event, activity: id, digest: handlingDigest)
        bridge.publishReceipt(topic: topics.receipt(of: route), json: receipt.json)
    }

    /// A start by push was applied: the receipt carries the new activity's update token
    /// (`input-push-token`), as an app would send it to its server on iOS, and is therefore
    /// held until the broker confirmed that token's subscription.
    func publishStarted(id: String, topic: String, timestamp: Double, event: String) {
        guard let route = topics.route(of: topic) else { return }
        var receipt = PushReceipt.outcome(route, timestamp: timestamp, applied: true, reason: "",
                                          event: event, activity: id, digest: handlingDigest)
        let receiptTopic = topics.receipt(of: route)
        guard let entry = registry.activities[id], let token = entry.token else {
            bridge.publishReceipt(topic: receiptTopic, json: receipt.json)
            return
        }
        guard entry.announced else {
            heldStartReceipts[id] = (receiptTopic, receipt)
            return
        }
        receipt.pushToken = token
        bridge.publishReceipt(topic: receiptTopic, json: receipt.json)
    }

    /// The token of an activity started by push was confirmed: its held start receipt goes out
    /// now (without a token when the activity ended before the broker confirmed it).
    func releaseHeldStartReceipt(id: String, token: String?) {
        guard var held = heldStartReceipts.removeValue(forKey: id) else { return }
        held.receipt.pushToken = token
        bridge.publishReceipt(topic: held.topic, json: held.receipt.json)
    }

    /// Tells the sender that `token` is dead (APNs's `Unregistered`): its activity ended.
    func publishUnregistered(id: String, token: String, at time: Double, why: String) {
        let receipt = PushReceipt.unregistered(activity: id, at: time, why: why)
        bridge.publishReceipt(topic: topics.receipt(of: .activity(token: token)), json: receipt.json)
    }
}

package extension PushState {
    /// Push as the service holds it: running, or off, with the reason when `push-broker` is
    /// set but could not be used (so `PushStatus` and a refused Start can say why).
    enum Setup {
        case off(problem: String?)
        case on(PushState)

        /// The running push, if any.
        package var running: PushState? {
            if case .on(let state) = self { return state }
            return nil
        }

        /// The `PushStatus` property: the running push's status, `off`, or `error: …` when
        /// `push-broker` is set but unusable.
        package var status: String {
            switch self {
            case .on(let state): return state.status
            case .off(let problem): return problem.map { "error: \($0)" } ?? "off"
            }
        }
    }
}
