import ActivityModel
import FoundationEssentials
import Glibc

/// Folds old entries of `history.jsonl` into `history-summary.json` without holding up the
/// bus and with bounded memory, however big the file (issue 18: a 51 MB history stalled a
/// Ping 6.5 s and left RSS at 169 MB). `prepare` runs on a thread of its own and streams the
/// file twice through a 64 KB buffer: once to size it per day, once to fold old entries,
/// copy the others to a new file and keep every line it cannot use verbatim in a
/// `history.jsonl.corrupt-<time>` file beside it. `finish` runs on the event loop (the only
/// writer of the history): it adds the lines appended meanwhile and renames the new file in.
/// Entries older than `keepDays`, and the oldest whole days beyond half the size limit (never
/// today's), are folded.
package struct HistoryRotation: Sendable {
    package let path: String
    package let summaryPath: String
    let now: Double
    let timeZoneOffset: Double

    package init(path: String, summaryPath: String, now: Double, timeZoneOffset: Double) {
        self.path = path
        self.summaryPath = summaryPath
        self.now = now
        self.timeZoneOffset = timeZoneOffset
    }

    /// What `prepare` made, for `finish`.
    package struct Prepared: Sendable {
        let temporaryPath: String
        /// Bytes of the history that `prepare` read; lines after them were appended meanwhile.
        let processedBytes: Int
        package let folded: Int
        package let setAside: Int
        package let asidePath: String?
    }

    /// Where a run failed, for the log.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    // MARK: On the rotation thread

    /// Reads the history and writes the rotated copy and the summary; nil when nothing needs
    /// to change. Touches nothing the event loop uses.
    package func prepare() throws(Failure) -> Prepared? {
        removeLeftovers()
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
        let size = Int(info.st_size)
        var summary = FileManager.default.contents(atPath: summaryPath)
            .flatMap { try? JSONDecoder().decode(HistorySummary.self, from: $0) } ?? HistorySummary()
        let sizes = measure(fd: fd, size: size, foldedThrough: summary.foldedThrough)
        let cutoff = now - HistoryFile.keepDays * 86_400
        let foldBefore = foldBoundary(sizes, cutoff: cutoff)
        guard sizes.unusableLines > 0 || sizes.oldLines > 0 || foldBefore > cutoff else { return nil }
        guard lseek(fd, 0, SEEK_SET) == 0 else { throw Failure(description: "cannot read \(path) again") }
        let result = try rewrite(fd: fd, size: size, foldBefore: foldBefore, summary: &summary)
        if result.folded > 0 {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            do {
                try AtomicFile.write(try encoder.encode(summary), to: summaryPath)
            } catch {
                unlink(result.temporaryPath)
                throw Failure(description: "cannot write \(summaryPath): \(error)")
            }
        }
        return result
    }

    /// Removes copies of runs that a stopped daemon left half done (one rotation runs at a time).
    private func removeLeftovers() {
        let directory = AtomicFile.directory(of: path)
        let prefix = String(path.dropFirst(directory.count + 1)) + Self.temporaryTag
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasPrefix(prefix) { unlink(directory + "/" + name) }
    }

    static let temporaryTag = ".rotating-"

    /// Bytes of usable entries per local day (those not older than `keepDays`), in all, and
    /// how many lines are not usable. Reads only `ended-at` of each line (pass 2 checks the rest).
    struct Sizes {
        var bytesByDay: [Int64: Int] = [:]
        var keptBytes = 0
        var oldLines = 0
        var unusableLines = 0
    }

    private func measure(fd: Int32, size: Int, foldedThrough: Double) -> Sizes {
        var sizes = Sizes()
        let cutoff = now - HistoryFile.keepDays * 86_400
        var reader = HistoryLineReader(fd: fd, limit: size)
        var inLongLine = false
        while let (bytes, endsLine) = reader.next() {
            defer { inLongLine = !endsLine }
            guard endsLine, !inLongLine else { if endsLine { sizes.unusableLines += 1 }; continue }
            guard !bytes.isEmpty else { continue }
            guard let endedAt = Self.endedAt(in: bytes) else { sizes.unusableLines += 1; continue }
            guard endedAt > foldedThrough else { continue }
            if endedAt < cutoff { sizes.oldLines += 1; continue }
            sizes.bytesByDay[Statistics.localDay(endedAt, timeZoneOffset), default: 0] += bytes.count + 1
            sizes.keptBytes += bytes.count + 1
        }
        return sizes
    }

    /// Entries ending before this time are folded: `keepDays` ago, or later by whole local
    /// days (oldest first, never today) while the rest is over half the size limit.
    private func foldBoundary(_ sizes: Sizes, cutoff: Double) -> Double {
        var boundary = cutoff
        var kept = sizes.keptBytes
        let today = Statistics.localDay(now, timeZoneOffset)
        for day in sizes.bytesByDay.keys.sorted() where kept > HistoryFile.rotateAfterBytes / 2 && day < today {
            kept -= sizes.bytesByDay[day] ?? 0
            boundary = max(boundary, Double(day + 1) * 86_400 - timeZoneOffset)
        }
        return boundary
    }

    /// Pass 2: folds, copies and sets aside; the copy and the aside file are fsynced.
    private func rewrite(fd: Int32, size: Int, foldBefore: Double, summary: inout HistorySummary) throws(Failure) -> Prepared {
        let temporaryPath = path + Self.temporaryTag + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let out = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard out >= 0 else { throw Failure(description: "cannot create \(temporaryPath): \(String(cString: strerror(errno)))") }
        var kept = BufferedOutput(fd: out, path: temporaryPath)
        var aside: BufferedOutput?
        var asidePath: String?
        var folded = 0, setAside = 0
        var batch: [HistoryEntry] = []
        var inLongLine = false
        let decoder = JSONDecoder()
        // Folding moves `summary.foldedThrough`; lines are compared with what was folded before this run.
        let alreadyFolded = summary.foldedThrough
        do throws(Failure) {
            var reader = HistoryLineReader(fd: fd, limit: size)
            func setLineAside(_ bytes: ArraySlice<UInt8>, newline: Bool) throws(Failure) {
                if aside == nil {
                    guard let name = AtomicFile.uniqueSibling(of: path, tag: "corrupt", now: Int(now)) else {
                        throw Failure(description: "cannot create a file beside \(path) for its unusable lines")
                    }
                    let asideFD = open(name, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
                    guard asideFD >= 0 else { throw Failure(description: "cannot open \(name): \(String(cString: strerror(errno)))") }
                    aside = BufferedOutput(fd: asideFD, path: name)
                    asidePath = name
                }
                try aside?.write(bytes, newline: newline)
                if newline { setAside += 1 }
            }
            while let (bytes, endsLine) = reader.next() {
                defer { inLongLine = !endsLine }
                guard endsLine, !inLongLine else {
                    try setLineAside(bytes, newline: endsLine)
                    continue
                }
                guard !bytes.isEmpty else { continue }
                guard let entry = try? decoder.decode(HistoryEntry.self, from: Data(bytes)), entry.isWithinRange else {
                    try setLineAside(bytes, newline: true)
                    continue
                }
                if entry.endedAt <= alreadyFolded { continue }
                if entry.endedAt < foldBefore {
                    batch.append(entry)
                    folded += 1
                    if batch.count >= 1000 {
                        summary.fold(batch, timeZoneOffset: timeZoneOffset)
                        batch.removeAll(keepingCapacity: true)
                    }
                } else {
                    try kept.write(bytes, newline: true)
                }
            }
            summary.fold(batch, timeZoneOffset: timeZoneOffset)
            try kept.finish()
            try aside?.finish()
        } catch {
            kept.abandon()
            aside?.abandon()
            unlink(temporaryPath)
            throw error
        }
        return Prepared(temporaryPath: temporaryPath, processedBytes: size, folded: folded, setAside: setAside, asidePath: asidePath)
    }

    /// `ended-at` of a line as the daemon writes it (`"ended-at":NUMBER`), without decoding it all
    /// (found with `memchr` and `memcmp`: this looks at every line of the history, twice per rotation).
    static func endedAt(in line: ArraySlice<UInt8>) -> Double? {
        let key: StaticString = "\"ended-at\":"
        return line.withUnsafeBytes { bytes -> Double? in
            guard let base = bytes.baseAddress, let found = Self.find(key, in: base, count: bytes.count) else { return nil }
            let valueStart = found + key.utf8CodeUnitCount
            var valueEnd = valueStart
            while valueEnd < bytes.count, bytes[valueEnd] != UInt8(ascii: ","), bytes[valueEnd] != UInt8(ascii: "}") { valueEnd += 1 }
            guard let value = Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self)),
                  value.isFinite, (0...253_402_300_799).contains(value) else { return nil }
            return value
        }
    }

    /// The offset of `key`'s first occurrence in `count` bytes at `base`.
    private static func find(_ key: StaticString, in base: UnsafeRawPointer, count: Int) -> Int? {
        let length = key.utf8CodeUnitCount
        var offset = 0
        while offset + length <= count {
            guard let candidate = memchr(base + offset, Int32(key.utf8Start.pointee), count - length - offset + 1) else { return nil }
            offset = base.distance(to: UnsafeRawPointer(candidate))
            if memcmp(candidate, key.utf8Start, length) == 0 { return offset }
            offset += 1
        }
        return nil
    }

    // MARK: On the event loop

    /// Adds the lines appended since `prepare` read the file, and puts the rotated file in place.
    package func finish(_ prepared: Prepared) throws(Failure) {
        let source = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard source >= 0 else { unlink(prepared.temporaryPath); throw Failure(description: "\(path) went away during its rotation") }
        defer { close(source) }
        var info = stat()
        guard fstat(source, &info) == 0, Int(info.st_size) >= prepared.processedBytes,
              lseek(source, off_t(prepared.processedBytes), SEEK_SET) >= 0 else {
            unlink(prepared.temporaryPath)
            throw Failure(description: "\(path) was replaced during its rotation; it is rotated at the next End")
        }
        let out = open(prepared.temporaryPath, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
        guard out >= 0 else { unlink(prepared.temporaryPath); throw Failure(description: "cannot reopen \(prepared.temporaryPath)") }
        var tail = BufferedOutput(fd: out, path: prepared.temporaryPath)
        do throws(Failure) {
            var reader = HistoryLineReader(fd: source, limit: Int(info.st_size) - prepared.processedBytes)
            while let (bytes, endsLine) = reader.next() { try tail.write(bytes, newline: endsLine) }
            try tail.finish()
            guard rename(prepared.temporaryPath, path) == 0 else {
                throw Failure(description: "cannot rename \(prepared.temporaryPath) to \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            tail.abandon()
            unlink(prepared.temporaryPath)
            throw error
        }
        do {
            try AtomicFile.syncDirectory(AtomicFile.directory(of: path), for: path)
        } catch {
            throw Failure(description: "\(error)")
        }
    }
}
