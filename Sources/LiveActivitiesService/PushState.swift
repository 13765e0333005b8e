import Push

/// What push keeps on the event loop's thread while the daemon runs: the broker bridge, the
/// token registry and its file, and the counts of messages by outcome. Exists only when
/// `push-broker` is set (`ActivityService.push` is nil otherwise: no thread, no cost).
final class PushState {
    /// Messages by outcome since the daemon started (rejections are also logged one by one).
    struct Counts {
        var received = 0
        var applied = 0
        var ignored = 0
        var rejected = 0
    }

    let bridge: PushBridge
    var registry: PushRegistry
    let path: String
    var counts = Counts()
    /// Receipts of push-to-start messages whose activity got an update token, by activity id:
    /// held until the broker confirmed that token, so the sender that reads it can publish at once.
    var heldStartReceipts: [String: (topic: String, receipt: PushReceipt)] = [:]
    /// The digest of the message being handled (nil when it was too large to read), for its receipts.
    var handlingDigest: String?
    /// Whether a save of the registry is already scheduled (timestamps are saved once a second).
    var savePending = false
    /// Whether the last save failed: then `push.json` may lack tokens that are only in memory,
    /// and none of them is handed out before a save succeeds.
    private(set) var lastSaveFailed = false

    init(bridge: PushBridge, registry: PushRegistry, path: String) {
        self.bridge = bridge
        self.registry = registry
        self.path = path
    }

    var topics: PushTopics { bridge.topics }

    /// Writes `push.json` now; a failure is logged (push goes on from memory).
    func save() {
        do {
            try saveDurably()
        } catch {
            Log.error("push: cannot save \(path): \(error)")
        }
    }

    /// Writes `push.json` now and fsyncs it; throws when it could not be written, for a caller
    /// that must not acknowledge a token before it is durable.
    func saveDurably() throws(AtomicFile.WriteError) {
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
