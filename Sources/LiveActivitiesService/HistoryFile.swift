import ActivityModel
import FoundationEssentials

/// The history of ended activities (`history.jsonl`), one JSON line per entry, that
/// `liveactivity history` and `stats` read.
struct HistoryFile {
    let path: String

    /// Appends one entry.
    func append(_ entry: HistoryEntry, now: Double) throws {
        try AtomicFile.appendLine(Data(try entry.jsonLine().utf8), to: path)
    }
}
