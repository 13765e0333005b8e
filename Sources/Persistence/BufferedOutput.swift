import FoundationEssentials
import Glibc

/// Writes through a 64 KB buffer to a file this type closes: `finish` flushes, fsyncs and closes.
package struct BufferedOutput {
    let fd: Int32
    package let path: String
    private var buffer: [UInt8] = []

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
        buffer.reserveCapacity(HistoryLineReader.chunkBytes)
    }

    package mutating func write(_ bytes: ArraySlice<UInt8>, newline: Bool) throws(HistoryRotation.Failure) {
        buffer.append(contentsOf: bytes)
        if newline { buffer.append(UInt8(ascii: "\n")) }
        if buffer.count >= HistoryLineReader.chunkBytes { try flush() }
    }

    package mutating func finish() throws(HistoryRotation.Failure) {
        try flush()
        guard fsync(fd) == 0 else { let failure = failed(); close(fd); throw failure }
        close(fd)
    }

    /// Closes without flushing (the file is being removed, or kept as far as it got).
    func abandon() { close(fd) }

    private mutating func flush() throws(HistoryRotation.Failure) {
        do {
            try AtomicFile.writeAll(fd, Data(buffer), path: path)
        } catch {
            throw HistoryRotation.Failure(description: error.description)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private func failed() -> HistoryRotation.Failure {
        HistoryRotation.Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
    }
}
