import Foundation

/// A private directory for one test (bus socket, XDG dirs, HOME), removed when released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL
    public var path: String { url.path }

    public init(prefix: String = "liveactivities-test") throws {
        let template = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-XXXXXX").path
        var buffer = Array(template.utf8CString)
        guard let made = mkdtemp(&buffer) else { throw POSIXError(.EIO) }
        url = URL(fileURLWithPath: String(cString: made))
        chmod(url.path, 0o700)
    }

    /// A subdirectory, created on demand.
    public func subdirectory(_ name: String) -> URL {
        let sub = url.appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        chmod(sub.path, 0o700)
        return sub
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
