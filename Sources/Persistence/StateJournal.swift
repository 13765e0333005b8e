import ActivityModel
import FoundationEssentials
import Glibc

/// An append-only log of acknowledged changes beside `state.json` (`JournalRecord`: activity
/// records, removals, settings, card ids), so a call costs one small append instead of
/// rewriting every activity. Replayed over `state.json` at start; emptied whenever
/// `state.json` is written in full (compaction).
///
/// The first line names the generation of `state.json` it continues. A full save writes
/// `state.json` with the next generation before it empties the journal, so a crash between the
/// two leaves a journal of the old generation, which is then ignored (its records are already
/// in `state.json`). A failed append is cut back off, so the next record starts on a line of
/// its own; a torn last line (a crash mid-append, never acknowledged) is skipped at replay.
package final class StateJournal {
    /// Lines or bytes after which the store writes `state.json` in full and starts over.
    static let compactAfterRecords = 4_000
    static let compactAfterBytes = 2 << 20

    package let path: String
    private var descriptor: Int32 = -1
    private var records = 0
    private var bytes = 0
    private let encoder = JSONEncoder()

    init(path: String) { self.path = path }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Whether the journal is open and can take records.
    var isOpen: Bool { descriptor >= 0 }

    /// Whether the journal has grown enough to be folded into `state.json`.
    var wantsCompaction: Bool { records >= Self.compactAfterRecords || bytes >= Self.compactAfterBytes }

    /// Starts an empty journal continuing `generation` (after `state.json` of that generation
    /// was written), on stable storage when this returns. The file is opened afresh each time,
    /// so a state directory removed and recreated while the daemon runs gets its journal back.
    func reset(generation: Int) throws(AtomicFile.WriteError) {
        if descriptor >= 0 { close(descriptor) }
        descriptor = AtomicFile.openNoFollow(path, O_WRONLY | O_CREAT | O_APPEND)
        guard descriptor >= 0 else { throw .errno(path) }
        records = 0
        bytes = 0
        do throws(AtomicFile.WriteError) {
            guard ftruncate(descriptor, 0) == 0 else { throw AtomicFile.WriteError.errno(path) }
            try append(Data("{\"generation\":\(generation)}\n".utf8))
            try sync()
            try AtomicFile.syncDirectory(AtomicFile.directory(of: path), for: path)
        } catch {
            close(descriptor)
            descriptor = -1
            throw error
        }
    }

    /// Appends records in one write; they are in the page cache (which survives a crash of the
    /// daemon) when this returns. On failure nothing of them stays in the file.
    package func record(_ changes: [JournalRecord]) throws(AtomicFile.WriteError) {
        guard descriptor >= 0 else { throw AtomicFile.WriteError(path: path, reason: "the journal is not open") }
        var data = Data()
        for change in changes {
            do {
                data.append(contentsOf: try change.line(encoder: encoder))
            } catch {
                throw AtomicFile.WriteError(path: path, reason: "cannot encode a record: \(error)")
            }
            data.append(UInt8(ascii: "\n"))
        }
        try append(data)
        records += changes.count
    }

    /// fdatasync(2): what was appended survives a power loss.
    func sync() throws(AtomicFile.WriteError) {
        guard descriptor >= 0 else { return }
        guard fdatasync(descriptor) == 0 else { throw .errno(path) }
    }

    private func append(_ data: Data) throws(AtomicFile.WriteError) {
        do {
            try AtomicFile.writeAll(descriptor, data, path: path)
        } catch {
            // Cut a partial line off, so the file keeps whole records only.
            _ = ftruncate(descriptor, off_t(bytes))
            throw error
        }
        bytes += data.count
    }
}

/// The journal read back: its records in order, and what had to be skipped, one precise line each.
package struct JournalReplay {
    var records: [JournalRecord] = []
    var skipped: [String] = []
    /// Whether the journal continues another generation of `state.json` (then it is ignored).
    var otherGeneration = false

    /// Reads `path`; empty when it is missing.
    static func read(path: String, generation: Int) -> JournalReplay {
        var replay = JournalReplay()
        let contents: Data
        switch AtomicFile.readNoFollow(path) {
        case .missing: return replay
        case .unreadable(let reason):
            replay.skipped.append("\(path): cannot be read (\(reason)); the journal is set aside")
            return replay
        case .read(let data): contents = data
        }
        guard !contents.isEmpty else { return replay }
        let data = [UInt8](contents)
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let torn = lines.last.map { !$0.isEmpty } ?? false
        if lines.last?.isEmpty == true { lines.removeLast() }
        let decoder = JSONDecoder()
        for (index, line) in lines.enumerated() {
            let number = index + 1
            if index == lines.count - 1 && torn {
                replay.skipped.append("\(path) line \(number): cut short (a write that did not finish, never acknowledged); skipped")
                continue
            }
            if let offset = Self.invalidUTF8Offset(line) {
                if index == 0 {
                    replay.skipped.append("\(path) line 1: invalid UTF-8 in the header; the journal is set aside "
                                          + "(none of its \(lines.count - 1) record line(s) applied)")
                    return replay
                }
                replay.skipped.append("\(path) line \(number): invalid UTF-8 at byte \(offset) of the line (damaged, not a torn write); skipped")
                continue
            }
            if index == 0 {
                if let header = try? decoder.decode(Header.self, from: Data(line)) {
                    if header.generation != generation { replay.otherGeneration = true; return replay }
                    continue
                }
                // Without its header the journal cannot say which state.json it continues:
                // applying its records could undo later changes, so it is set aside whole.
                replay.skipped.append("\(path) line 1: not a journal header; the journal is set aside "
                                      + "(none of its \(lines.count - 1) record line(s) applied)")
                replay.records = []
                return replay
            }
            do {
                replay.records.append(try JournalRecord.parse(Data(line), decoder: decoder))
            } catch {
                guard case .unreadable(let reason) = error else { continue }
                replay.skipped.append("\(path) line \(number): \(reason); skipped")
            }
        }
        return replay
    }

    /// The offset of the first byte that is not valid UTF-8, or nil.
    private static func invalidUTF8Offset(_ line: ArraySlice<UInt8>) -> Int? {
        var iterator = line.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// The journal's first line: which generation of `state.json` it continues.
    private struct Header: Decodable {
        let generation: Int
    }
}
