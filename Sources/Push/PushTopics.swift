/// The topics of DESIGN.md's push section under one prefix, and the reverse: which token or
/// channel an incoming message's topic names. A message can only reach what its topic names.
public struct PushTopics: Equatable, Sendable {
    public let prefix: String

    public init(prefix: String) { self.prefix = prefix }

    /// Where a message came in.
    public enum Route: Equatable, Sendable {
        /// `<prefix>/activity/<token>`: one activity's update token.
        case activity(token: String)
        /// `<prefix>/start/<token>`: a push-to-start token (one per kind).
        case start(token: String)
        /// `<prefix>/channel/<id>`: every activity that follows the channel.
        case channel(id: String)
    }

    public func activity(_ token: String) -> String { "\(prefix)/activity/\(token)" }
    public func start(_ token: String) -> String { "\(prefix)/start/\(token)" }
    public func channel(_ id: String) -> String { "\(prefix)/channel/\(id)" }

    /// Where the receipts of messages on `route` go: `<prefix>/receipt/` and the message's
    /// topic below the prefix (`<prefix>/receipt/activity/<token>`, `…/receipt/start/<token>`,
    /// `…/receipt/channel/<id>`). A sender reads the receipts of what it publishes to, and an
    /// ACL grants each desktop `write <prefix>/receipt/#` under its own prefix only.
    public func receipt(of route: Route) -> String {
        switch route {
        case .activity(let token): return "\(prefix)/receipt/activity/\(token)"
        case .start(let token): return "\(prefix)/receipt/start/\(token)"
        case .channel(let id): return "\(prefix)/receipt/channel/\(id)"
        }
    }

    public func topic(of route: Route) -> String {
        switch route {
        case .activity(let token): return activity(token)
        case .start(let token): return start(token)
        case .channel(let id): return channel(id)
        }
    }

    /// The route of an incoming topic, or nil when it is none of ours.
    public func route(of topic: String) -> Route? {
        guard topic.hasPrefix(prefix + "/") else { return nil }
        let rest = topic.dropFirst(prefix.count + 1)
        let parts = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty, !parts[1].contains("/") else { return nil }
        let name = String(parts[1])
        switch parts[0] {
        case "activity": return .activity(token: name)
        case "start": return .start(token: name)
        case "channel": return .channel(id: name)
        default: return nil
        }
    }

    /// The topic with any token in it shortened, for the log (tokens are secrets).
    public func redacted(_ topic: String) -> String {
        switch route(of: topic) {
        case .activity(let token): return activity(PushToken.redacted(token))
        case .start(let token): return start(PushToken.redacted(token))
        case .channel, nil: return topic
        }
    }
}

/// Push tokens: 128 random bits as 32 lowercase hex digits, like an APNs activity token. A
/// token is a secret (whoever knows it can move the activity), so logs show only its start.
public enum PushToken {
    /// A new token from the system's random source.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return make(using: &generator)
    }

    /// A token from `generator` (tests pass a seeded one).
    public static func make<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let words = [generator.next() as UInt64, generator.next() as UInt64]
        return words.map { word in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Whether `text` has the form of a token.
    public static func isValid(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The first 6 digits and an ellipsis: enough to tell tokens apart in a log.
    public static func redacted(_ token: String) -> String { String(token.prefix(6)) + "…" }

    /// Channel ids: 1 to 64 of `[A-Za-z0-9_.-]` (no MQTT wildcards or separators).
    public static func isValidChannel(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64 && id.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }
}
