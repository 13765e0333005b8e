import Glibc

/// Reads a file's lines through a 64 KB buffer, so a history of any size is read with
/// bounded memory. A line longer than `maxLineBytes` is handed over in pieces (only the last
/// one has `endsLine`), so even a file with no newline at all grows the buffer to at most
/// `maxLineBytes` and one chunk. Every byte of a history passes through here, so bytes are
/// found, moved and read with `memchr`, `memmove` and `read` into one buffer, never element
/// by element (which cost a debug build 2.5 s of a 5 s rotation of 8 MB).
package struct HistoryLineReader {
    static let chunkBytes = 64 * 1024
    static let maxLineBytes = 1 << 20

    private let fd: Int32
    /// Bytes left to read: the reader stops at this offset (the file may grow meanwhile).
    private var remaining: Int
    /// Bytes `start..<end` are read and not handed out yet; the rest is room to read into.
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0

    /// Reads `fd` from its current offset, at most `limit` bytes.
    init(fd: Int32, limit: Int) {
        self.fd = fd
        remaining = limit
        buffer = Self.zeroed(2 * Self.chunkBytes)
    }

    /// Bytes of the file consumed so far that belong to lines handed out.
    private(set) var consumed = 0

    /// The next line (without its newline) or piece of an over-long line; nil at the end.
    /// A last line without a newline is handed out too (`endsLine` true).
    mutating func next() -> (bytes: ArraySlice<UInt8>, endsLine: Bool)? {
        while true {
            if let newline = firstNewline() {
                let line = buffer[start..<newline]
                consumed += newline - start + 1
                start = newline + 1
                return (line, true)
            }
            if end - start >= Self.maxLineBytes {
                return handOutUnread(endsLine: false)
            }
            guard fill() else {
                guard start < end else { return nil }
                return handOutUnread(endsLine: true)
            }
        }
    }

    private mutating func handOutUnread(endsLine: Bool) -> (bytes: ArraySlice<UInt8>, endsLine: Bool) {
        let piece = buffer[start..<end]
        consumed += piece.count
        start = end
        return (piece, endsLine)
    }

    /// The index of the first newline among the unread bytes.
    private func firstNewline() -> Int? {
        guard start < end else { return nil }
        return buffer.withUnsafeBytes { bytes -> Int? in
            guard let base = bytes.baseAddress, let found = memchr(base + start, Int32(UInt8(ascii: "\n")), end - start) else {
                return nil
            }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    /// Moves the unread bytes to the front and reads one more chunk; false at the end.
    private mutating func fill() -> Bool {
        guard remaining > 0 else { return false }
        let unread = end - start
        if start > 0 {
            let from = start
            buffer.withUnsafeMutableBytes { bytes in
                if let base = bytes.baseAddress { memmove(base, base + from, unread) }
            }
            start = 0
            end = unread
        }
        let wanted = min(Self.chunkBytes, remaining)
        if buffer.count < end + wanted {  // a line longer than a chunk: room for it (at most maxLineBytes + a chunk)
            var larger = Self.zeroed(min(max(2 * buffer.count, end + wanted), Self.maxLineBytes + Self.chunkBytes))
            let kept = end
            larger.withUnsafeMutableBytes { target in
                buffer.withUnsafeBytes { source in
                    if let to = target.baseAddress, let from = source.baseAddress { memcpy(to, from, kept) }
                }
            }
            buffer = larger
        }
        var count = 0
        let at = end
        repeat {
            count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + at }, wanted) }
        } while count < 0 && errno == EINTR
        guard count > 0 else { return false }
        end += count
        remaining -= count
        return true
    }

    /// `count` zero bytes, set by `memset`.
    private static func zeroed(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { storage, initialized in
            if let base = storage.baseAddress { memset(base, 0, count) }
            initialized = count
        }
    }
}
