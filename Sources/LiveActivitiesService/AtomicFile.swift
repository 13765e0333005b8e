import FoundationEssentials
import Glibc

/// Writes a file so that a reader (or a restart after SIGKILL) sees either the old or the new
/// content, never a torn one: write a temporary file beside it, then rename over it.
enum AtomicFile {
    /// Why a write failed, with the path, for the log and for the user.
    struct WriteError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "cannot write \(path): \(reason)" }
    }

    /// Replaces `path` with `data`, creating its directory (mode 700) if needed.
    static func write(_ data: Data, to path: String) throws(WriteError) {
        let directory = Self.directory(of: path)
        if !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw WriteError(path: path, reason: "cannot create directory \(directory): \(error)")
            }
        }
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, base + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; return -1 }
                offset += n
            }
            return offset
        }
        let writeErrno = errno
        close(fd)
        guard written == data.count else {
            unlink(temporary)
            throw WriteError(path: path, reason: String(cString: strerror(writeErrno)))
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw WriteError(path: path, reason: reason)
        }
    }

    /// The directory part of a file path ("/a/b/c" → "/a/b"), like NSString's deletingLastPathComponent.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Appends one line to `path` (creating it), in a single write so lines never interleave.
    static func appendLine(_ line: Data, to path: String) throws(WriteError) {
        let directory = Self.directory(of: path)
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var bytes = line
        bytes.append(UInt8(ascii: "\n"))
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard n == bytes.count else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
    }
}
