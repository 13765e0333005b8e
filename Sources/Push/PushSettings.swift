/// The push keys of `liveactivityd.conf`: which broker, how to log in, which CA to trust, and
/// the topic prefix. `broker` nil means push is off: nothing is connected and nothing costs.
public struct PushSettings: Equatable, Sendable {
    /// A parsed `push-broker` URL.
    public struct Broker: Equatable, Sendable {
        public var host: String
        public var port: Int
        public var tls: Bool

        public init(host: String, port: Int, tls: Bool) {
            self.host = host
            self.port = port
            self.tls = tls
        }
    }

    public var broker: Broker?
    /// Why `push-broker` was set but could not be used: push is then off, and `PushStatus`,
    /// the log and `liveactivity doctor` say this instead of a silent `off`.
    public var brokerProblem: String?
    public var username: String?
    /// A file whose first line is the password (kept out of the config file).
    public var passwordFile: String?
    public var caFile: String?
    public var topicPrefix = "liveactivities"

    public init() {}

    /// The keys this type reads, with what each expects.
    public static let keys: [(key: String, expects: String)] = [
        ("push-broker", "mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"), ("push-username", "a user name"),
        ("push-password-file", "the path of a file holding the password"), ("push-ca-file", "the path of a PEM CA file"),
        ("push-topic-prefix", "a topic prefix without + or # (default liveactivities)"),
    ]

    /// Sets one key; returns what was wrong, or nil.
    public mutating func set(_ key: String, _ value: String) -> String? {
        let expects = Self.keys.first { $0.key == key }?.expects ?? "a value"
        let wrong = "\(key): expected \(expects), got \"\(value)\""
        switch key {
        case "push-broker":
            if value.contains(",") {
                brokerProblem = "push-broker: several brokers (a comma-separated list) are not supported yet; "
                    + "give one mqtt://HOST[:PORT] or mqtts://HOST[:PORT], got \"\(value)\""
                broker = nil
                return brokerProblem
            }
            guard let parsed = Self.parseBroker(value) else {
                brokerProblem = wrong
                broker = nil
                return wrong
            }
            broker = parsed
            brokerProblem = nil
        case "push-username":
            guard !value.isEmpty else { return wrong }
            username = value
        case "push-password-file":
            guard value.hasPrefix("/") else { return wrong + " (an absolute path)" }
            passwordFile = value
        case "push-ca-file":
            guard value.hasPrefix("/") else { return wrong + " (an absolute path)" }
            caFile = value
        case "push-topic-prefix":
            guard Self.isValidPrefix(value) else { return wrong }
            topicPrefix = value
        default:
            return wrong
        }
        return nil
    }

    /// `mqtt://host[:port]` (1883) or `mqtts://host[:port]` (8883); `[::1]` for IPv6.
    public static func parseBroker(_ text: String) -> Broker? {
        let tls: Bool
        let rest: Substring
        if text.hasPrefix("mqtt://") { tls = false; rest = text.dropFirst(7) }
        else if text.hasPrefix("mqtts://") { tls = true; rest = text.dropFirst(8) }
        else { return nil }
        let authority = rest.hasSuffix("/") ? rest.dropLast() : rest
        var host = Substring(authority)
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains("/"), !host.contains("@") else { return nil }
        var port = tls ? 8883 : 1883
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else { return nil }
            port = number
        }
        return Broker(host: String(host), port: port, tls: tls)
    }

    /// A prefix is one or more topic levels without wildcards, not starting or ending with `/`.
    static func isValidPrefix(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 128 && !text.hasPrefix("/") && !text.hasSuffix("/")
            && !text.contains("+") && !text.contains("#") && !text.contains("//") && !text.unicodeScalars.contains { $0.value < 0x20 }
    }
}
