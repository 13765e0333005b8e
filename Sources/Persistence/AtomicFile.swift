import FoundationEssentials
import ServiceSupport
import Glibc

/// Writes a file so that a reader (or a restart after SIGKILL or a power loss) sees either the
/// old or the new content, never a torn one: write a temporary file beside it (a name of its
/// own, so two writers never share one), fsync it, rename it over the target, fsync the directory.
package enum AtomicFile {
    /// Why a write failed, with the path and the errno text, for the log and for the user.
    package struct WriteError: Error, CustomStringConvertible {
        package let path: String
        let reason: String
        package var description: String { "cannot write \(path): \(reason)" }

        package init(path: String, reason: String) {
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
    package static func write(_ data: Data, to path: String) throws(WriteError) {
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

    /// Makes `directory` private to the user: created with mode 700 if missing, and an existing
    /// one that others could read or enter (an older daemon made it 755) set to 700.
    static func secureDirectory(_ directory: String) throws(WriteError) {
        try ensureDirectory(directory, for: directory)
        var info = stat()
        guard stat(directory, &info) == 0 else { throw .errno(directory) }
        guard info.st_mode & 0o077 != 0 else { return }
        guard chmod(directory, 0o700) == 0 else { throw .errno(directory) }
        Log.info("\(directory) was mode \(String(info.st_mode & 0o777, radix: 8)); set to 700 (only you may read your activities)")
    }

    /// open(2) of a file of the state directory without following a symbolic link: the daemon
    /// never writes through a link someone put in place of its file (`O_NOFOLLOW`). With
    /// `O_CREAT`, a link found there is removed (the link, never its target) and the file is
    /// created in its place; without it, a link fails with ELOOP. Returns -1 with `errno` set.
    /// For every file the daemon keeps there (`lock`, `state.journal`, `history.jsonl`, …).
    static func openNoFollow(_ path: String, _ flags: Int32, mode: mode_t = 0o600) -> Int32 {
        let fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd < 0, Glibc.errno == ELOOP, flags & O_CREAT != 0 else { return fd }
        Log.warning("\(path) is a symbolic link; removing the link (not its target) and creating the file in its place")
        guard unlink(path) == 0 else { return -1 }
        return open(path, flags | O_NOFOLLOW | O_CLOEXEC, mode)
    }

    /// What could be read of a file of the state directory, not following a symbolic link.
    package enum ReadResult {
        case missing
        case read(Data)
        case unreadable(String)
    }

    /// Reads all of `path` without following a symbolic link (a link is `unreadable`).
    package static func readNoFollow(_ path: String) -> ReadResult {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            switch Glibc.errno {
            case ENOENT: return .missing
            case ELOOP: return .unreadable("it is a symbolic link, which the daemon does not follow")
            default: return .unreadable(String(cString: strerror(Glibc.errno)))
            }
        }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n < 0 { if Glibc.errno == EINTR { continue }; return .unreadable(String(cString: strerror(Glibc.errno))) }
            if n == 0 { return .read(data) }
            data.append(contentsOf: buffer[..<n])
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
