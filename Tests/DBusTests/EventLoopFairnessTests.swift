import Foundation
import Glibc
import Testing
import DBus

/// Issue 18, point 6: posted work runs in bounded batches, with a poll of the descriptors
/// between them, so a reader (the bus) never waits behind a whole flood of posted items.
@Suite(.timeLimit(.minutes(5))) struct EventLoopFairnessTests {
    /// What ran, in order; touched only on the loop's thread.
    final class Order: @unchecked Sendable {
        var names: [String] = []
    }

    @Test func aReadyReaderRunsBetweenBatchesOfPostedWork() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let order = Order()
        let token = loop.addReader(fd: fds[0]) {
            var byte: UInt8 = 0
            _ = read(fds[0], &byte, 1)
            order.names.append("reader")
        }
        defer { loop.removeReader(token) }
        let flood = 1_000
        for n in 0..<flood { loop.post { order.names.append("posted \(n)") } }
        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == 1)
        #expect(loop.run(until: { order.names.count == flood + 1 }, timeout: 10))
        let readerAt = order.names.firstIndex(of: "reader") ?? .max
        #expect(readerAt <= 64, "the reader ran after \(readerAt) of \(flood) posted items")
        #expect(order.names.filter { $0 != "reader" } == (0..<flood).map { "posted \($0)" }, "posted work keeps its order")
    }

    @Test func stopRunsEverythingPostedBeforeIt() throws {
        let loop = try EventLoop()
        let order = Order()
        for n in 0..<100 { loop.post { order.names.append("posted \(n)") } }
        loop.remote.stop()
        loop.run()
        #expect(order.names.count == 100, "\(order.names.count) of 100 ran before run() returned")
    }
}
