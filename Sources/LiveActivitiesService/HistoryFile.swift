import ActivityModel
import FoundationEssentials
import Glibc

/// The history of ended activities (`history.jsonl`), one JSON line per entry, that
/// `liveactivity history` and `stats` read. It rotates, so it stays small however long it
/// runs: past `rotateAfterBytes`, or when its first entry is older than `maxAgeDays`, entries
/// older than `keepDays` (and the oldest beyond half the size, never today's) are folded into
/// `history-summary.json` (`HistorySummary`), which keeps every figure `stats` reports.
struct HistoryFile {
    static let rotateAfterBytes = 1 << 20
    static let keepDays = 30.0
    static let maxAgeDays = 90.0

    let path: String
    var summaryPath: String { AtomicFile.directory(of: path) + "/history-summary.json" }

    /// Appends one entry; returns whether the file is due for `rotate`.
    func append(_ entry: HistoryEntry, now: Double) throws -> Bool {
        try AtomicFile.appendLine(Data(try entry.jsonLine().utf8), to: path)
        return isDue(now: now)
    }

    /// Whether the file is too big, or its first entry too old.
    func isDue(now: Double) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        if Int(info.st_size) > Self.rotateAfterBytes { return true }
        guard let first = firstEntry() else { return false }
        return first.endedAt < now - Self.maxAgeDays * 86_400
    }

    /// Folds old entries into the summary (written first) and rewrites the file without them.
    func rotate(now: Double, timeZoneOffset: Double) throws {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        var summary = (FileManager.default.contents(atPath: summaryPath))
            .flatMap { try? JSONDecoder().decode(HistorySummary.self, from: $0) } ?? HistorySummary()
        let decoder = JSONDecoder()
        var rows: [(entry: HistoryEntry, line: Data)] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let entry = try? decoder.decode(HistoryEntry.self, from: Data(line)),
                  entry.endedAt > summary.foldedThrough else { continue }
            rows.append((entry, Data(line)))
        }
        rows.sort { $0.entry.endedAt < $1.entry.endedAt }
        let today = Double(Statistics.localDay(now, timeZoneOffset)) * 86_400 - timeZoneOffset
        let cutoff = now - Self.keepDays * 86_400
        var keptBytes = rows.reduce(0) { $0 + $1.line.count + 1 }
        var foldCount = 0
        for row in rows {
            let tooOld = row.entry.endedAt < cutoff
            let tooMuch = keptBytes > Self.rotateAfterBytes / 2 && row.entry.endedAt < today
            guard tooOld || tooMuch else { break }
            keptBytes -= row.line.count + 1
            foldCount += 1
        }
        guard foldCount > 0 else { return }
        summary.fold(rows.prefix(foldCount).map(\.entry), timeZoneOffset: timeZoneOffset)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(try encoder.encode(summary), to: summaryPath)
        var kept = Data()
        for row in rows.dropFirst(foldCount) {
            kept.append(row.line)
            kept.append(UInt8(ascii: "\n"))
        }
        try AtomicFile.write(kept, to: path)
        Log.info("\(path): \(foldCount) entries older than \(Int(Self.keepDays)) days or beyond its size folded into \(summaryPath)")
    }

    /// The first entry of the file (reads only its first line).
    private func firstEntry() -> HistoryEntry? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &head, head.count)
        guard count > 0, let line = head[..<count].split(separator: UInt8(ascii: "\n")).first else { return nil }
        return try? JSONDecoder().decode(HistoryEntry.self, from: Data(line))
    }
}
