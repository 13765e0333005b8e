import Glibc

/// The daemon's log: one line per event on standard error (journald keeps it under systemd).
/// Writes to fd 2 directly, since the `stderr` global is not concurrency-safe.
public enum Log {
    public static func info(_ message: String) { write("liveactivityd: \(message)\n") }
    public static func warning(_ message: String) { write("liveactivityd: warning: \(message)\n") }
    public static func error(_ message: String) { write("liveactivityd: error: \(message)\n") }

    private static func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            _ = Glibc.write(2, buffer.baseAddress, buffer.count)
        }
    }
}
