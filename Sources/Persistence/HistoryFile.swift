import ActivityModel
import FoundationEssentials
import ServiceSupport
import Glibc

/// The history of ended activities (`history.jsonl`), one JSON line per entry, that
/// `liveactivity history` and `stats` read. An entry is appended and fsynced together with the
/// End it belongs to (`ActivityService.commit`): an End whose line cannot be written is refused,
/// and a line whose End could not be saved is taken back. The file is never opened through a
/// symlink. It rotates (`HistoryRotation`) past `rotateAfterBytes`, or when its first entry is
/// older than `maxAgeDays`.
package struct HistoryFile {
    static let rotateAfterBytes = 1 << 20
    package static let keepDays = 30.0
    static let maxAgeDays = 90.0

    package let path: String

    package init(path: String) { self.path = path }
    package var summaryPath: String { AtomicFile.directory(of: path) + "/history-summary.json" }

    /// Where an append began, so that the call it belonged to can take it back.
    package struct Appended {
        let offset: Int
    }

    /// Appends `entries` in one write and fsyncs them; returns where they begin.
    func append(_ entries: [HistoryEntry], now: Double) throws(AtomicFile.WriteError) -> Appended {
        var bytes: [UInt8] = []
        for entry in entries {
            do {
                bytes += Array(try entry.jsonLine().utf8)
            } catch {
                throw AtomicFile.WriteError(path: path, reason: "cannot encode the entry of \(entry.id): \(error)")
            }
            bytes.append(UInt8(ascii: "\n"))
        }
        try AtomicFile.ensureDirectory(AtomicFile.directory(of: path), for: path)
        let fd = try openForAppend(now: now)
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .errno(path) }
        let offset = Int(info.st_size)
        do throws(AtomicFile.WriteError) {
            try AtomicFile.writeAll(fd, Data(bytes), path: path)
            guard fsync(fd) == 0 else { throw AtomicFile.WriteError.errno(path) }
        } catch {
            _ = ftruncate(fd, off_t(offset))
            throw error
        }
        return Appended(offset: offset)
    }

    /// Takes back an append whose state change could not be written (the End is refused).
    func takeBack(_ appended: Appended) {
        let fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        if ftruncate(fd, off_t(appended.offset)) != 0 || fsync(fd) != 0 {
            Log.error("cannot take back the last lines of \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Opens the file for appending without following a symlink: a link found at its place
    /// (it could point at any file of the user) is moved aside and a new file is made.
    private func openForAppend(now: Double) throws(AtomicFile.WriteError) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC
        var fd = open(path, flags, 0o600)
        if fd < 0 && errno == ELOOP {
            guard let aside = AtomicFile.uniqueSibling(of: path, tag: "symlink", now: Int(now)),
                  rename(path, aside) == 0 else { throw .errno(path) }
            Log.warning("\(path) was a symbolic link; moved aside to \(aside), a new history file is started")
            fd = open(path, flags, 0o600)
        }
        guard fd >= 0 else { throw .errno(path) }
        return fd
    }

    /// Whether the file is too big, or its first entry too old or unreadable.
    func isDue(now: Double) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        if Int(info.st_size) > Self.rotateAfterBytes { return true }
        guard info.st_size > 0 else { return false }
        switch firstLine() {
        case .entry(let first): return first.endedAt < now - Self.maxAgeDays * 86_400
        case .unusable: return true
        case .unknown: return false
        }
    }

    /// What the first line of the file is.
    private enum FirstLine {
        case entry(HistoryEntry)
        /// A whole line that is not an entry, or one out of range: rotation sets it aside.
        case unusable
        /// No whole line in the first 4 KB, or no file.
        case unknown
    }

    /// Reads only the first line of the file.
    private func firstLine() -> FirstLine {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return .unknown }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &head, head.count)
        guard count > 0 else { return .unknown }
        let text = head[..<count].drop { $0 == UInt8(ascii: "\n") }
        guard let end = text.firstIndex(of: UInt8(ascii: "\n")) ?? (count < head.count ? text.endIndex : nil) else { return .unknown }
        guard let entry = try? JSONDecoder().decode(HistoryEntry.self, from: Data(text[..<end])), entry.isWithinRange else {
            return .unusable
        }
        return .entry(entry)
    }
}
