import DBus
import Foundation

/// Whether Live Activities may start, as in ActivityKit: the daemon's `Enabled` property,
/// which the user switches with `liveactivity enabled on|off` (a desktop-wide setting, not
/// a per-app one as in iOS Settings).
public final class ActivityAuthorizationInfo: Sendable {
    public init() {}

    /// The daemon's `Enabled`; false when no daemon answers (a blocking D-Bus call).
    public var areActivitiesEnabled: Bool {
        guard let link = try? DaemonLink.current(),
              let reply = try? link.call("Get", [.string(DaemonLink.managerInterface), .string("Enabled")],
                                         interface: DaemonLink.propertiesInterface) else { return false }
        return reply.first?.bool ?? false
    }

    /// Always false: a desktop has no push budget to allow.
    public var frequentPushesEnabled: Bool { false }

    /// `Enabled` each time it changes.
    public var activityEnablementUpdates: ActivityEnablementUpdates { ActivityEnablementUpdates() }

    /// The daemon's `Enabled` property each time it changes.
    public struct ActivityEnablementUpdates: AsyncSequence, Sendable {
        public typealias Element = Bool

        public func makeAsyncIterator() -> Iterator {
            guard let link = try? DaemonLink.current() else {
                return Iterator(base: AsyncStream<Bool> { $0.finish() }.makeAsyncIterator())
            }
            let stream = SignalStream<Bool>.make(link: link) { signal, continuation in
                if case .enabled(let on) = signal { continuation.yield(on) }
            }
            if link.hub.startWatchingEnabled() { link.addMatch(DaemonSignalHub.propertiesRule) }
            return Iterator(base: stream.makeAsyncIterator())
        }

        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncStream<Bool>.Iterator
            public mutating func next() async -> Bool? { await base.next() }
        }
    }
}

/// Linux addition: the kind file that makes an attributes type's card a designed one.
///
/// An app ships the JSON of a kind (docs/kinds.md) named after `Attributes.activityKind`
/// and installs it before its first `request`; the daemon reads its kind directories again
/// when a kind it does not know is asked for, so no restart is needed.
public enum ActivityKindFile {
    /// The user's kind directory: `$XDG_DATA_HOME/liveactivities/kinds` (default `~/.local/share/…`).
    public static var userDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return URL(fileURLWithPath: dataHome).appendingPathComponent("liveactivities/kinds")
    }

    /// Writes `json` as `<kind>.json` into `directory` (default `userDirectory`) unless the
    /// same text is there already; returns the file's URL.
    @discardableResult
    public static func install<Attributes: ActivityAttributes>(_ json: String, for type: Attributes.Type,
                                                                in directory: URL? = nil) throws -> URL {
        let folder = directory ?? userDirectory
        let file = folder.appendingPathComponent(Attributes.activityKind + ".json")
        if let existing = try? String(contentsOf: file, encoding: .utf8), existing == json { return file }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: file, options: .atomic)
        return file
    }
}
