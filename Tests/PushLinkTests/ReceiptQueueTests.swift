@testable import PushLink
import Testing

/// The receipts waiting for the broker are bounded for real (issue 28 row 3): those handed to
/// libmosquitto and not yet acknowledged count with those held here, the oldest held are dropped
/// and counted, and a PUBACK makes room for the next.
@Suite(.timeLimit(.minutes(1))) struct ReceiptQueueTests {
    func receipt(_ n: Int) -> ReceiptQueue.Receipt { ReceiptQueue.Receipt(topic: "t/\(n)", payload: Array("\(n)".utf8)) }

    @Test func aFloodDuringAnOutageLeavesAtMostTheLimitWaiting() {
        var queue = ReceiptQueue(limit: 1000, window: 100)
        var nextID: Int32 = 0
        var sent: [ReceiptQueue.Receipt] = []
        let publish: (ReceiptQueue.Receipt) -> Int32? = { receipt in
            sent.append(receipt)
            nextID += 1
            return nextID
        }
        // Connected: the first 100 go to libmosquitto, the broker acknowledges none (it is going away).
        for n in 0..<150 { queue.add(receipt(n)); queue.send(publish) }
        #expect(sent.count == 100 && queue.unacknowledged.count == 100 && queue.held.count == 50)
        // Down: 20,000 more, as the flood; the bound holds at every step.
        for n in 150..<20_150 {
            queue.add(receipt(n))
            #expect(queue.waiting <= 1000)
        }
        #expect(queue.waiting == 1000)
        let dropped = queue.takeDroppedCount(), again = queue.takeDroppedCount()
        #expect(dropped == 19_150)
        #expect(again == 0, "counted once per outage")
        #expect(queue.held.first == receipt(19_250), "the oldest held went first; the newest stay")
        #expect(queue.held.last == receipt(20_149))
        // Back: PUBACKs of the 100 in flight let the held ones go, at most 100 at a time.
        for id in Int32(1)...Int32(100) { let known = queue.acknowledged(id); #expect(known) }
        queue.send(publish)
        #expect(sent.count == 200 && queue.unacknowledged.count == 100 && queue.held.count == 800)
        let unknown = queue.acknowledged(9_999)
        #expect(!unknown, "a message id of no receipt")
    }

    @Test func aRefusedPublishKeepsTheReceiptForLater() {
        var queue = ReceiptQueue(limit: 5, window: 2)
        queue.add(receipt(1))
        queue.send { _ in nil }
        #expect(queue.held == [receipt(1)] && queue.unacknowledged.isEmpty)
        queue.send { _ in 7 }
        #expect(queue.held.isEmpty && queue.unacknowledged[7] == receipt(1))
    }
}
