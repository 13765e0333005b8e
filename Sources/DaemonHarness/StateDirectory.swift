import ActivityFiles
import Foundation

/// A fresh state directory with the daemon's paths and the checkout's kinds, removed when
/// freed: the ground every test of `state.json` and its journal stands on, made in one place.
public final class StateDirectory {
    /// Removed when this is freed; the state directory is this or `root/state`.
    public let root: URL
    /// The daemon's state directory (`state.json`, `state.json.corrupt-*`, `state.journal`).
    public let directory: URL
    public let paths: DaemonPaths

    /// The checkout's `data/kinds`.
    public static let kinds: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../data/kinds").standardized.path

    /// `nested`: the state directory is `root/state`, so a test can put files beside it;
    /// `permissions`: its mode, when the test depends on one.
    public init(prefix: String, nested: Bool = false, permissions: Int? = nil) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        directory = nested ? root.appendingPathComponent("state") : root
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: permissions.map { [.posixPermissions: $0] })
        paths = DaemonPaths(stateDirectory: directory.path, configDirectory: root.path, kindDirectories: [Self.kinds])
    }

    public var stateFile: URL { URL(fileURLWithPath: paths.stateFile) }
    public var journal: URL { directory.appendingPathComponent("state.journal") }

    /// The copies set aside of `name` (`state.json.corrupt-…`), sorted.
    public func corruptCopies(of name: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(name + ".corrupt-") }.sorted()
    }

    deinit { try? FileManager.default.removeItem(at: root) }
}
