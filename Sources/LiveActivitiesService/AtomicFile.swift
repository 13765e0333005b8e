import FoundationEssentials
import Glibc

/// Writes a file so that a reader (or a restart after SIGKILL or a power loss) sees either the
/// old or the new content, never a torn one: write a temporary file beside it (a name of its
/// own, so two writers never share one), fsync it, rename it over the target, fsync the directory.
enum AtomicFile {
    /// Why a write failed, with the path and the errno text, for the log and for the user.
    struct WriteError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "cannot write \(path): \(reason)" }

        init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }

        /// The error of the failed C call that just returned (reads `errno`).
        static func errno(_ path: String) -> WriteError {
            WriteError(path: path, reason: String(cString: strerror(Glibc.errno)))
        }
    }

    /// Replaces `path` with `data`, creating its directory (mode 700) if needed; the new
    /// content is on stable storage when this returns.
    static func write(_ data: Data, to path: String) throws(WriteError) {
        let directory = Self.directory(of: path)
        try ensureDirectory(directory, for: path)
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .errno(path) }
        do throws(WriteError) {
            try writeAll(fd, data, path: path)
            guard fsync(fd) == 0 else { throw WriteError.errno(path) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let failure = WriteError.errno(path)
            unlink(temporary)
            throw failure
        }
        try syncDirectory(directory, for: path)
    }

    /// Creates `directory` (mode 700, with its parents) if it is missing.
    static func ensureDirectory(_ directory: String, for path: String) throws(WriteError) {
        guard !FileManager.default.fileExists(atPath: directory) else { return }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw WriteError(path: path, reason: "cannot create directory \(directory): \(error)")
        }
    }

    /// Writes all of `data` to `fd` (retrying short writes and EINTR).
    static func writeAll(_ fd: Int32, _ data: Data, path: String) throws(WriteError) {
        let failed = data.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, base + offset, buffer.count - offset)
                if n < 0 { if Glibc.errno == EINTR { continue }; return true }
                offset += n
            }
            return false
        }
        if failed { throw .errno(path) }
    }

    /// fsync(2) of a directory, so a file created or renamed in it survives a power loss.
    static func syncDirectory(_ directory: String, for path: String) throws(WriteError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .errno(path) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw .errno(path) }
    }

    /// The directory part of a file path ("/a/b/c" → "/a/b"), like NSString's deletingLastPathComponent.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Appends one line to `path` (creating it), in a single write so lines never interleave.
    static func appendLine(_ line: Data, to path: String) throws(WriteError) {
        try ensureDirectory(directory(of: path), for: path)
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .errno(path) }
        defer { close(fd) }
        var bytes = line
        bytes.append(UInt8(ascii: "\n"))
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard n == bytes.count else { throw .errno(path) }
    }

    /// A new name beside `path` that no file has yet (`<path>.<tag>-<time>[-n]`), for copies
    /// set aside: created empty with O_EXCL, so two copies never share a name.
    static func uniqueSibling(of path: String, tag: String, now: Int) -> String? {
        for attempt in 0..<1000 {
            let candidate = path + ".\(tag)-\(now)" + (attempt == 0 ? "" : "-\(attempt)")
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 { close(fd); return candidate }
            if errno != EEXIST { return nil }
        }
        return nil
    }
}
