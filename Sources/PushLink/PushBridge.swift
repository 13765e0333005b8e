import DBus
import MQTT
import Push
import ServiceSupport

/// The daemon's side of the broker connection, on the event loop's thread. The MQTT client
/// runs on its own thread and every event it reports is posted here, so the bus is never
/// held up by the network. The bridge keeps the set of topics the daemon wants, subscribes
/// them all on every (re)connection (the broker may have lost the session), tells which
/// subscriptions the broker confirmed, and keeps `status` for the `PushStatus` property.
package final class PushBridge {
    package let topics: PushTopics
    private(set) var status = "connecting"
    /// The topics the daemon wants, whether or not the broker has them yet.
    private(set) var wanted: Set<String> = []
    private var client: MQTTClient?
    private var connected = false
    /// SUBSCRIBE message id → its topics, until the SUBACK.
    private var pending: [Int32: [String]] = [:]
    /// The SUBSCRIBE sent on connection: `status` becomes `connected` when it is confirmed.
    private var connectBatch: Int32?
    /// The broker last tried (with a cluster, the node the connection is on).
    private var broker: MQTTAddress?
    /// Receipts not yet acknowledged by the broker, held here or handed to libmosquitto: at most
    /// `maxWaitingReceipts` in all, the oldest held dropped and counted (`ReceiptQueue`).
    private var receipts = ReceiptQueue(limit: PushBridge.maxWaitingReceipts)
    static let maxWaitingReceipts = 1000

    /// Called when `status` changes.
    package var onStatus: (String) -> Void = { _ in }
    /// Called when the broker confirmed a subscription to a topic.
    package var onConfirmed: (String) -> Void = { _ in }
    /// Called for every message: its topic, its bytes (nil when over the size limit) and size.
    package var onMessage: (String, [UInt8]?, Int) -> Void = { _, _, _ in }

    package init(topics: PushTopics) { self.topics = topics }

    /// Creates the MQTT client and starts its thread. Events are posted to `loop`.
    package func connect(settings: MQTTSettings, maxPayloadBytes: Int, loop: EventLoop) {
        let target = LoopBound(self)
        let remote = loop.remote
        do {
            let client = try MQTTClient(settings: settings, maxPayloadBytes: maxPayloadBytes) { event in
                remote.post { target.value.handle(event) }
            }
            self.client = client
            guard client.start() else { setStatus("error: cannot start the MQTT thread"); return }
            let list = settings.addresses.map { "\(settings.tls ? "mqtts" : "mqtt")://\($0)" }.joined(separator: ", ")
            Log.info("push: connecting to \(list) as \(settings.clientID)")
        } catch {
            setStatus("error: \(error.message)")
        }
    }

    /// The daemon is stopping: say goodbye to the broker (the session stays).
    func disconnect() { client?.stop() }

    /// Wants `topic`; subscribes now when connected. Returns whether it was new.
    @discardableResult
    func want(_ topic: String) -> Bool {
        guard wanted.insert(topic).inserted else { return false }
        if connected { subscribe([topic]) }
        return true
    }

    /// No longer wants `topic`; unsubscribes now when connected.
    func drop(_ topic: String) {
        guard wanted.remove(topic) != nil else { return }
        if connected { client?.unsubscribe([topic]) }
    }

    /// Publishes a receipt (QoS 1, not retained). It waits its turn with those not yet
    /// acknowledged, also across a lost connection, so a sender that waits for it still gets it
    /// after a failover; at most `maxWaitingReceipts` wait in all.
    func publishReceipt(topic: String, json: String) {
        receipts.add(ReceiptQueue.Receipt(topic: topic, payload: Array(json.utf8)))
        sendReceipts()
    }

    /// Hands waiting receipts to libmosquitto while connected and its window has room.
    private func sendReceipts() {
        guard connected, let client else { return }
        receipts.send { client.publish(topic: $0.topic, payload: $0.payload) }
    }

    package func setStatus(_ text: String) {
        guard text != status else { return }
        status = text
        Log.info("push: \(text)")
        onStatus(text)
    }

    // MARK: Events from the MQTT thread (posted to the loop)

    func handle(_ event: MQTTEvent) {
        switch event {
        case .connected(let sessionPresent):
            connected = true
            pending = [:]
            Log.info("push: connected to \(broker.map(String.init(describing:)) ?? "the broker") (it \(sessionPresent ? "kept" : "has no") session); subscribing \(wanted.count) topics")
            connectBatch = subscribe(wanted.sorted())
            if connectBatch == nil { setStatus("connected") }
            let dropped = receipts.takeDroppedCount()
            if dropped > 0 {
                Log.warning("push: \(dropped) receipt(s) dropped while they could not be sent (at most "
                            + "\(Self.maxWaitingReceipts) wait; the oldest go first)")
            }
            sendReceipts()
        case .attempting(let address):
            broker = address
        case .connectionFailed(let reason):
            connected = false
            setStatus("error: \(reason)")
        case .disconnected(let reason):
            // After a refused CONNACK libmosquitto also reports a disconnection: keep the refusal.
            guard connected else { return }
            connected = false
            setStatus("error: connection to \(broker.map(String.init(describing:)) ?? "the broker") lost: \(reason)")
        case .subscribed(let messageID, let granted):
            confirm(messageID, granted)
        case .message(let topic, let payload, let size):
            onMessage(topic, payload, size)
        case .published(let messageID):
            if receipts.acknowledged(messageID) { sendReceipts() }
        }
    }

    private func confirm(_ messageID: Int32, _ granted: [Int32]) {
        guard let batch = pending.removeValue(forKey: messageID) else { return }
        var refused: [String] = []
        for (index, topic) in batch.enumerated() {
            let code = index < granted.count ? granted[index] : 0x80
            if code >= 0x80 { refused.append(topic) } else { onConfirmed(topic) }
        }
        for topic in refused { Log.error("push: the broker refused the subscription to \(topics.redacted(topic)) (check its ACL)") }
        if !refused.isEmpty {
            setStatus("error: the broker refused \(refused.count) subscription(s); check its ACL")
        } else if messageID == connectBatch {
            setStatus("connected")
        }
        if messageID == connectBatch { connectBatch = nil }
    }

    /// Sends one SUBSCRIBE for `list`; returns its message id.
    @discardableResult
    private func subscribe(_ list: [String]) -> Int32? {
        guard !list.isEmpty, let client else { return nil }
        guard let messageID = client.subscribe(list) else {
            Log.error("push: cannot queue a subscription of \(list.count) topic(s)")
            return nil
        }
        pending[messageID] = list
        return messageID
    }
}
