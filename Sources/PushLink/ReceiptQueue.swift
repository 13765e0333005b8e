/// The receipts on their way to the broker, bounded for real (issue 28 row 3): every receipt
/// not yet acknowledged counts, whether we hold it or libmosquitto does. libmosquitto takes
/// every QoS 1 publish into a queue of its own without a bound, and a receipt was held here only
/// once the daemon knew the connection was down, so a flood that met an outage left 14,000
/// receipts waiting. Now at most `window` are handed to libmosquitto unacknowledged (each leaves
/// the count at its PUBACK), the rest wait here, and the whole never exceeds `limit`: the
/// oldest waiting here are dropped and counted, and the count is reported once per outage.
package struct ReceiptQueue {
    /// One receipt: its topic and JSON bytes.
    struct Receipt: Equatable {
        let topic: String
        let payload: [UInt8]
    }

    /// At most this many receipts wait in all, handed over or held.
    let limit: Int
    /// At most this many are handed to libmosquitto and not yet acknowledged.
    let window: Int
    /// Receipts handed over, by message id, until the broker acknowledges them.
    private(set) var unacknowledged: [Int32: Receipt] = [:]
    /// Receipts waiting here, oldest first.
    private(set) var held: [Receipt] = []
    /// Receipts dropped since the last report.
    private(set) var dropped = 0

    init(limit: Int = 1000, window: Int = 100) {
        self.limit = max(1, limit)
        self.window = max(1, min(window, self.limit))
    }

    /// Every receipt waiting, handed over or held.
    var waiting: Int { unacknowledged.count + held.count }

    /// Takes a new receipt: it waits its turn behind the held ones, the oldest held dropped
    /// when the bound is reached.
    mutating func add(_ receipt: Receipt) {
        held.append(receipt)
        let over = waiting - limit
        if over > 0 {
            let removable = min(over, held.count)
            held.removeFirst(removable)
            dropped += removable
        }
    }

    /// Hands held receipts to `publish` (which returns the message id, or nil when it could not
    /// queue one) while the window has room; stops at the first refusal.
    mutating func send(_ publish: (Receipt) -> Int32?) {
        while unacknowledged.count < window, let first = held.first, let messageID = publish(first) {
            held.removeFirst()
            unacknowledged[messageID] = first
        }
    }

    /// The broker acknowledged message `messageID` (a PUBACK); false when it was none of ours.
    @discardableResult
    mutating func acknowledged(_ messageID: Int32) -> Bool {
        unacknowledged.removeValue(forKey: messageID) != nil
    }

    /// The receipts dropped since the last call, and the count starts again (for the once-per-
    /// outage log line).
    mutating func takeDroppedCount() -> Int {
        defer { dropped = 0 }
        return dropped
    }
}
