import Foundation
import Glibc
import TestSupport

/// Reads a child's output pipe line by line on a background thread, so a test can wait for a
/// line while the child keeps running. It polls with a short timeout instead of blocking in
/// read(2), so `close()` really closes the pipe (a read in flight would keep it open).
/// The thread holds the reader until `close()`, which its owner must call.
final class LineReader: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()
    private var received: [String] = []
    private var partial: [UInt8] = []
    private var stopRequested = false
    private var reachedEnd = false
    private let finished = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        self.handle = handle
        let thread = Thread { [self] in readUntilStopped() }
        thread.start()
    }

    /// Every complete line so far, without newlines.
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return received }

    /// Whether the writer closed its end (the child exited).
    var isAtEnd: Bool { lock.lock(); defer { lock.unlock() }; return reachedEnd }

    /// Waits until some line from index `from` on satisfies `matches`; returns its index.
    @discardableResult
    func waitForLine(from start: Int = 0, timeout: Double = 5, _ matches: (String) -> Bool) -> Int? {
        var found: Int?
        _ = waitUntil(timeout: timeout) {
            let all = lines
            found = all.indices.dropFirst(start).first { matches(all[$0]) }
            return found != nil
        }
        return found
    }

    /// Waits until at least `count` lines arrived.
    func waitForCount(_ count: Int, timeout: Double = 5) -> Bool {
        waitUntil(timeout: timeout) { lines.count >= count }
    }

    /// Stops reading and closes the read end: the writer then sees EPIPE (or POLLERR).
    func close() {
        lock.lock()
        let alreadyStopped = stopRequested
        stopRequested = true
        lock.unlock()
        guard !alreadyStopped else { return }
        finished.wait()
        try? handle.close()
    }

    private var shouldStop: Bool { lock.lock(); defer { lock.unlock() }; return stopRequested }

    private func readUntilStopped() {
        defer { finished.signal() }
        let fd = handle.fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !shouldStop {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else {
                if count == 0 || errno != EINTR { markEnd(); return }
                continue
            }
            append(buffer[0..<count])
        }
    }

    private func append(_ bytes: ArraySlice<UInt8>) {
        lock.lock(); defer { lock.unlock() }
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                received.append(String(decoding: partial, as: UTF8.self))
                partial = []
            } else {
                partial.append(byte)
            }
        }
    }

    private func markEnd() { lock.lock(); reachedEnd = true; lock.unlock() }
}
