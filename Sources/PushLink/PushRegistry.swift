import FoundationEssentials
import Persistence
import Push

/// Who holds which push token, saved in `push.json` beside the state (its own file: the
/// activity state has its own format and writer). It keeps the broker client id, the
/// push-to-start token of every kind, and per activity its update token, whether that token
/// was announced, its channel, and the timestamp of the last message applied. Tokens and the
/// client id survive restarts, so the broker's session and the server's tokens stay valid.
package struct PushRegistry: Codable, Equatable {
    /// The push side of one activity.
    package struct ActivityEntry: Codable, Equatable {
        package var token: String?
        /// Whether the broker confirmed the token's subscription once (then `PushToken` shows it).
        var announced = false
        var channel: String?
        /// `aps.timestamp` of the last message applied; older ones are ignored.
        var lastTimestamp: Double?
        /// Digests of the messages applied with `lastTimestamp` (a resend of one is ignored).
        var appliedDigests: [String]?
    }

    package var clientID: String
    /// Push-to-start token by kind.
    package var startTokens: [String: String] = [:]
    /// `aps.timestamp` of the last start applied per kind (a redelivered start is ignored).
    var lastStartTimestamps: [String: Double] = [:]
    /// Per kind, digests of the starts applied with its last start timestamp (`PushRegistry+Identity`).
    var startDigests: [String: [String]]?
    package var activities: [String: ActivityEntry] = [:]

    init(clientID: String) { self.clientID = clientID }

    /// A fresh registry with a new stable client id.
    package static func fresh() -> PushRegistry {
        PushRegistry(clientID: "liveactivityd-" + String(PushToken.make().prefix(16)))
    }

    /// Reads `path`; nil when there is no file. Throws when the file is not a registry.
    package static func load(path: String) throws -> PushRegistry? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try JSONDecoder().decode(PushRegistry.self, from: data)
    }

    /// Writes `path` atomically; it is on stable storage when this returns.
    package func save(path: String) throws(AtomicFile.WriteError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(self)
        } catch {
            throw AtomicFile.WriteError(path: path, reason: "cannot encode the push registry: \(error)")
        }
        try AtomicFile.write(data, to: path)
    }

    func activityID(forToken token: String) -> String? {
        activities.first { $0.value.token == token }?.key
    }

    func kind(forStartToken token: String) -> String? {
        startTokens.first { $0.value == token }?.key
    }

    /// The activities following `channel`, in id order.
    func followers(of channel: String) -> [String] {
        activities.filter { $0.value.channel == channel }.map(\.key).sorted()
    }

    /// Every topic the daemon should be subscribed to now.
    package func topics(_ names: PushTopics) -> Set<String> {
        var result = Set(startTokens.values.map(names.start))
        for entry in activities.values {
            if let token = entry.token { result.insert(names.activity(token)) }
            if let channel = entry.channel { result.insert(names.channel(channel)) }
        }
        return result
    }
}
