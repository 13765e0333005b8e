import FoundationEssentials

/// User corrections to the detected `ServerProfile`, per server, from a small config file
/// (a server we misjudge, or a user who prefers the text bar):
///
/// ```
/// # keys before any section apply to every server, like [*]
/// [dunst]                       # GetServerInformation name, case-insensitive
/// sends-value-hint = false
/// body-markup = true
/// routine-urgency-low = true
/// shows-seconds = false
/// minimum-identical-interval = 1.5
/// max-visible-cards = 1         # 0 = no limit
/// ```
public struct ProfileOverrides: Sendable, Equatable {
    /// The keys a section may set; nil leaves the detected value.
    public struct Fields: Sendable, Equatable {
        public var sendsValueHint: Bool?
        public var bodyMarkup: Bool?
        public var routineUrgencyLow: Bool?
        public var showsSeconds: Bool?
        public var minimumIdenticalInterval: Double?
        public var maxVisibleCards: Int?

        public init() {}

        func applied(to profile: ServerProfile) -> ServerProfile {
            var result = profile
            if let sendsValueHint { result.sendsValueHint = sendsValueHint }
            if let bodyMarkup { result.bodyMarkup = bodyMarkup }
            if let routineUrgencyLow { result.routineUrgencyLow = routineUrgencyLow }
            if let showsSeconds { result.showsSeconds = showsSeconds }
            if let minimumIdenticalInterval { result.minimumIdenticalInterval = minimumIdenticalInterval }
            if let maxVisibleCards { result.maxVisibleCards = maxVisibleCards }
            return result
        }
    }

    /// Sections by lowercased server name; "*" applies to every server.
    public var sections: [String: Fields]

    public init(sections: [String: Fields] = [:]) {
        self.sections = sections
    }

    /// No overrides.
    public static let none = ProfileOverrides()

    /// `profile` with the "*" section applied, then the section of `info`'s server name.
    public func apply(to profile: ServerProfile, for info: ServerInfo) -> ServerProfile {
        var result = profile
        if let all = sections["*"] { result = all.applied(to: result) }
        if let own = sections[info.name.lowercased()] { result = own.applied(to: result) }
        return result
    }

    /// The detected profile of `info` with these overrides applied.
    public func profile(for info: ServerInfo) -> ServerProfile {
        apply(to: ServerProfile.detect(info), for: info)
    }
}

/// Why an overrides file was refused; the message names the line and what is expected.
public struct ProfileOverridesError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let message: String
    public var description: String { "line \(line): \(message)" }
}

extension ServerProfile {
    /// Parses the overrides file format documented on `ProfileOverrides`.
    public static func parseOverrides(_ text: String) throws(ProfileOverridesError) -> ProfileOverrides {
        var overrides = ProfileOverrides()
        var section = "*"
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                .first.map(String.init)?.trimmed ?? ""
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else {
                    throw ProfileOverridesError(line: lineNumber, message: "expected a section like [dunst], got \"\(line)\"")
                }
                section = String(line.dropFirst().dropLast()).trimmed.lowercased()
                continue
            }
            let parts = line.split(separator: "=", maxSplits: 1).map { String($0).trimmed }
            guard parts.count == 2, !parts[0].isEmpty else {
                throw ProfileOverridesError(line: lineNumber, message: "expected key = value, got \"\(line)\"")
            }
            var fields = overrides.sections[section] ?? ProfileOverrides.Fields()
            try fields.set(key: parts[0], value: parts[1], line: lineNumber)
            overrides.sections[section] = fields
        }
        return overrides
    }
}

extension ProfileOverrides.Fields {
    fileprivate mutating func set(key: String, value: String, line: Int) throws(ProfileOverridesError) {
        switch key {
        case "sends-value-hint": sendsValueHint = try Self.bool(value, key: key, line: line)
        case "body-markup": bodyMarkup = try Self.bool(value, key: key, line: line)
        case "routine-urgency-low": routineUrgencyLow = try Self.bool(value, key: key, line: line)
        case "shows-seconds": showsSeconds = try Self.bool(value, key: key, line: line)
        case "minimum-identical-interval":
            guard let seconds = Double(value), seconds >= 0, seconds.isFinite else {
                throw ProfileOverridesError(line: line, message: "\(key): expected seconds (a number >= 0), got \"\(value)\"")
            }
            minimumIdenticalInterval = seconds
        case "max-visible-cards":
            guard let count = Int(value), count >= 0 else {
                throw ProfileOverridesError(line: line, message: "\(key): expected a whole number >= 0 (0 = no limit), got \"\(value)\"")
            }
            maxVisibleCards = count
        default:
            throw ProfileOverridesError(line: line, message: "unknown key \"\(key)\"; expected sends-value-hint, body-markup, "
                                        + "routine-urgency-low, shows-seconds, minimum-identical-interval or max-visible-cards")
        }
    }

    private static func bool(_ value: String, key: String, line: Int) throws(ProfileOverridesError) -> Bool {
        switch value.lowercased() {
        case "true", "yes", "1", "on": return true
        case "false", "no", "0", "off": return false
        default: throw ProfileOverridesError(line: line, message: "\(key): expected true or false, got \"\(value)\"")
        }
    }
}

extension String {
    var trimmed: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}

extension ProfileOverrides {
    /// Reads and parses the overrides file at `path`; a missing file means no overrides.
    public static func load(path: String) throws -> ProfileOverrides {
        guard FileManager.default.fileExists(atPath: path) else { return .none }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try ServerProfile.parseOverrides(text)
    }
}
