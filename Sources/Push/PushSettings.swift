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

    /// Every broker of `push-broker`, in order: the daemon connects to the first that answers
    /// and fails over to the next when its node goes away. Empty: push is off.
    public var brokers: [Broker] = []
    /// The first broker, nil when push is off.
    public var broker: Broker? { brokers.first }
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
            switch Self.parseBrokers(value) {
            case .success(let list):
                brokers = list
                brokerProblem = nil
            case .failure(let problem):
                brokerProblem = problem.text(value)
                brokers = []
                return brokerProblem
            }
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

    /// Why a `push-broker` value cannot be used.
    public enum BrokerListProblem: Error, Equatable {
        /// One entry (or the whole value) is not an `mqtt://` or `mqtts://` URL.
        case notAURL(String)
        /// `mqtt://` and `mqtts://` mixed: one connection has one TLS setting.
        case mixedSchemes
        /// The same broker twice.
        case repeated(String)

        func text(_ value: String) -> String {
            let expects = "expected mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"
            switch self {
            case .notAURL(let entry) where entry == value: return "push-broker: \(expects), got \"\(value)\""
            case .notAURL(let entry): return "push-broker: \"\(entry)\" is not mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (in \"\(value)\")"
            case .mixedSchemes: return "push-broker: mqtt:// and mqtts:// cannot be mixed in one list, got \"\(value)\""
            case .repeated(let entry): return "push-broker: \(entry) is listed twice, got \"\(value)\""
            }
        }
    }

    /// A comma-separated list of broker URLs (one is a list of one), all of one scheme, none twice.
    public static func parseBrokers(_ text: String) -> Result<[Broker], BrokerListProblem> {
        var list: [Broker] = []
        let entries = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
        for entry in entries {
            guard let broker = parseBroker(entry) else { return .failure(.notAURL(entries.count == 1 ? text : entry)) }
            guard !list.contains(broker) else { return .failure(.repeated(entry)) }
            if let first = list.first, first.tls != broker.tls { return .failure(.mixedSchemes) }
            list.append(broker)
        }
        return .success(list)
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

private extension Substring {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
