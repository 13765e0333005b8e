import ActivityModel
import FoundationEssentials
import Glibc

/// An append-only log of acknowledged updates beside `state.json`, so an Update costs one
/// small append instead of rewriting every activity: one line per update holding the whole
/// updated activity record. Replayed over `state.json` at start; emptied whenever
/// `state.json` is written in full.
///
/// The first line names the generation of `state.json` it continues. A full save writes
/// `state.json` with the next generation before it empties the journal, so a SIGKILL between
/// the two leaves a journal of the old generation, which is then ignored (its updates are
/// already in `state.json`). A torn last line (killed mid-append, so never acknowledged) is
/// ignored too.
final class StateJournal {
    /// Lines or bytes after which the store writes `state.json` in full and starts over.
    static let compactAfterRecords = 4_000
    static let compactAfterBytes = 2 << 20

    let path: String
    private var descriptor: Int32 = -1
    private var records = 0
    private var bytes = 0
    private let encoder = JSONEncoder()

    init(path: String) { self.path = path }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Whether the journal has grown enough to be folded into `state.json`.
    var wantsCompaction: Bool { records >= Self.compactAfterRecords || bytes >= Self.compactAfterBytes }

    /// Starts an empty journal continuing `generation` (after `state.json` of that generation was written).
    /// The file is opened afresh each time, so a state directory removed and recreated while
    /// the daemon runs gets its journal back.
    func reset(generation: Int) throws(AtomicFile.WriteError) {
        if descriptor >= 0 { close(descriptor) }
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure() }
        guard ftruncate(descriptor, 0) == 0 else { throw failure() }
        records = 0
        bytes = 0
        try append(Data("{\"generation\":\(generation)}\n".utf8))
    }

    /// Appends one updated activity; it is on disk (in the page cache, which survives a
    /// SIGKILL) when this returns.
    func record(_ activity: Activity) throws(AtomicFile.WriteError) {
        guard descriptor >= 0 else { throw AtomicFile.WriteError(path: path, reason: "the journal is not open") }
        var line: Data
        if var record = activity.jsonRecord() {
            record.append(UInt8(ascii: "\n"))
            line = Data(record)
        } else {
            do {
                line = try encoder.encode(activity)
            } catch {
                throw AtomicFile.WriteError(path: path, reason: "cannot encode activity \(activity.id): \(error)")
            }
            line.append(UInt8(ascii: "\n"))
        }
        try append(line)
        records += 1
    }

    /// The activities recorded after `state.json` of `generation`, in order; empty when the
    /// journal is missing or continues another generation.
    static func replay(path: String, generation: Int) -> [Activity] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        guard let header = lines.first,
              let header = try? JSONDecoder().decode(Header.self, from: Data(header)),
              header.generation == generation else { return [] }
        let decoder = JSONDecoder()
        var activities: [Activity] = []
        for line in lines.dropFirst() {
            guard let activity = try? decoder.decode(Activity.self, from: Data(line)) else {
                Log.warning("\(path): ignoring an unreadable record (a write cut short by a crash)")
                continue
            }
            activities.append(activity)
        }
        return activities
    }

    /// The journal's first line: which generation of `state.json` it continues.
    private struct Header: Decodable {
        let generation: Int
    }

    private func append(_ data: Data) throws(AtomicFile.WriteError) {
        let written = data.withUnsafeBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            var offset = 0
            while offset < buffer.count {
                let n = write(descriptor, base + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; return -1 }
                offset += n
            }
            return offset
        }
        guard written == data.count else { throw failure() }
        bytes += data.count
    }

    private func failure() -> AtomicFile.WriteError {
        AtomicFile.WriteError(path: path, reason: String(cString: strerror(errno)))
    }
}
