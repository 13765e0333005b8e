import Glibc

/// Reads a file's lines through a fixed 64 KB buffer, so a history of any size is read with
/// bounded memory. A line longer than `maxLineBytes` is handed over in pieces (only the last
/// one has `endsLine`), so even a file with no newline at all never grows the buffer.
struct HistoryLineReader {
    static let chunkBytes = 64 * 1024
    static let maxLineBytes = 1 << 20

    private let fd: Int32
    /// Bytes left to read: the reader stops at this offset (the file may grow meanwhile).
    private var remaining: Int
    private var buffer: [UInt8] = []
    private var start = 0

    /// Reads `fd` from its current offset, at most `limit` bytes.
    init(fd: Int32, limit: Int) {
        self.fd = fd
        remaining = limit
    }

    /// Bytes of the file consumed so far that belong to lines handed out.
    private(set) var consumed = 0

    /// The next line (without its newline) or piece of an over-long line; nil at the end.
    /// A last line without a newline is handed out too (`endsLine` true).
    mutating func next() -> (bytes: ArraySlice<UInt8>, endsLine: Bool)? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[start..<newline]
                consumed += newline - start + 1
                start = newline + 1
                return (line, true)
            }
            if buffer.count - start >= Self.maxLineBytes {
                let piece = buffer[start...]
                consumed += piece.count
                start = buffer.count
                return (piece, false)
            }
            guard fill() else {
                guard start < buffer.count else { return nil }
                let last = buffer[start...]
                consumed += last.count
                start = buffer.count
                return (last, true)
            }
        }
    }

    /// Moves the unread bytes to the front and reads one more chunk; false at the end.
    private mutating func fill() -> Bool {
        guard remaining > 0 else { return false }
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        let wanted = min(Self.chunkBytes, remaining)
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: wanted))
        var count = 0
        repeat {
            count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + oldCount }, wanted) }
        } while count < 0 && errno == EINTR
        buffer.removeLast(wanted - max(0, count))
        guard count > 0 else { return false }
        remaining -= count
        return true
    }
}
