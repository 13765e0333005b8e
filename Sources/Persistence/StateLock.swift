import FoundationEssentials
import Glibc

/// The one-daemon-per-state-directory rule: an exclusive `flock` on `<state>/lock`, taken
/// before anything in the directory is read or written and held for the life of the process
/// (the kernel drops it when the process dies, SIGKILL included). A second daemon, on the same
/// bus or another one that shares `$XDG_STATE_HOME`, cannot take it and leaves everything alone.
package final class StateLock {
    /// Why the lock could not be had: held by another process, or the directory is unusable.
    package enum Failure: Error, CustomStringConvertible {
        case held(path: String, holder: String)
        case unusable(path: String, reason: String)

        package var description: String {
            switch self {
            case .held(let path, let holder):
                return "another liveactivityd (\(holder)) already uses this state directory (lock \(path)); "
                    + "this one exits without touching it"
            case .unusable(let path, let reason):
                return "cannot lock \(path): \(reason)"
            }
        }
    }

    package let path: String
    private let descriptor: Int32

    /// Takes the lock of `directory` (created if missing, made mode 700) without waiting; a
    /// symbolic link at `lock` is replaced, never written through.
    package init(directory: String) throws(Failure) {
        path = directory + "/lock"
        do {
            try AtomicFile.secureDirectory(directory)
        } catch {
            throw .unusable(path: path, reason: error.reason)
        }
        let fd = AtomicFile.openNoFollow(path, O_RDWR | O_CREAT)
        guard fd >= 0 else { throw .unusable(path: path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            let holder = Self.holder(fd)
            close(fd)
            if reason == EWOULDBLOCK { throw .held(path: path, holder: holder) }
            throw .unusable(path: path, reason: String(cString: strerror(reason)))
        }
        descriptor = fd
        // Who holds it, for the message of the next one (advisory; the lock is the flock).
        let text = Data("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 { try? AtomicFile.writeAll(fd, text, path: path) }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// "pid N" from the lock file's content, or "pid unknown".
    private static func holder(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = pread(fd, &buffer, buffer.count, 0)
        guard n > 0 else { return "pid unknown" }
        let text = String(decoding: buffer[..<n], as: UTF8.self).filter(\.isNumber)
        return Int32(text).map { "pid \($0)" } ?? "pid unknown"
    }
}
