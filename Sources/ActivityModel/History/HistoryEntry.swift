#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One ended activity, as a line of the history file that statistics are computed from.
public struct HistoryEntry: Codable, Equatable, Sendable {
    public var id: String
    public var kind: String
    public var reason: EndReason
    public var startedAt: UnixTime
    public var endedAt: UnixTime
    /// Running time excluding pauses (the timer's position at the end, capped at a countdown's
    /// length), or the whole span for activities without a timer.
    public var activeSeconds: Double
    public var attributes: [String: Value]
    /// The card's title at the end (absent in entries of older versions).
    public var title: String?
    /// What the session was about: the `task` state key when set, else the title (for `stats --by task`).
    public var task: String?
    /// Seconds the user was away and chose not to count (idle-aware sessions); absent: none.
    public var awaySeconds: Double?

    /// Running time that counted: `activeSeconds` (the timer's position, from which time away
    /// the user discarded is already taken out).
    public var focusedSeconds: Double { activeSeconds }

    public init(id: String, kind: String, reason: EndReason, startedAt: UnixTime, endedAt: UnixTime,
                activeSeconds: Double, attributes: [String: Value] = [:]) {
        self.id = id
        self.kind = kind
        self.reason = reason
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.activeSeconds = activeSeconds
        self.attributes = attributes
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, reason, attributes, title, task
        case awaySeconds = "away-seconds"
        case startedAt = "started-at", endedAt = "ended-at", activeSeconds = "active-seconds"
    }

    /// The entry for an ended activity.
    init(ended activity: Activity, reason: EndReason, at endedAt: UnixTime) {
        var active = endedAt - activity.startedAt
        if let timer = activity.timer {
            active = max(0, timer.position(at: endedAt))
            if timer.countsDown, let duration = timer.duration { active = min(active, duration) }
        }
        self.init(id: activity.id.rawValue, kind: activity.kind, reason: reason,
                  startedAt: activity.startedAt, endedAt: endedAt, activeSeconds: max(0, active),
                  attributes: activity.attributes)
        if case .string(let task)? = activity.state["task"], !task.isEmpty { self.task = task }
    }

    /// The entry as one line of JSON (no newline), keys sorted. JSON escapes control
    /// characters but not U+0085, U+2028 and U+2029, which Swift's `isNewline` (and many
    /// readers) take for line breaks: those are written as `\u0085`, `\u2028`, `\u2029`,
    /// so no client text can split its entry.
    public func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Self.escapingLineSeparators(String(decoding: try encoder.encode(self), as: UTF8.self))
    }

    /// The separators JSON leaves raw; they can only stand inside strings, where `\uXXXX` is valid.
    private static func escapingLineSeparators(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" }) else { return json }
        var escaped = ""
        for scalar in json.unicodeScalars {
            switch scalar {
            case "\u{85}": escaped += "\\u0085"
            case "\u{2028}": escaped += "\\u2028"
            case "\u{2029}": escaped += "\\u2029"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Whether every time and duration is finite and within years 1970–9999, so no day or
    /// clock conversion of it can trap. A line out of range is set aside like an undecodable one.
    public var isWithinRange: Bool {
        InputLimits.isTime(startedAt) && InputLimits.isTime(endedAt) && InputLimits.isDuration(activeSeconds) && activeSeconds >= 0
    }

    /// Reads a history file's text; lines that are empty, not entries or out of range are
    /// skipped (`HistoryLines` counts them).
    public static func parse(jsonLines text: String) -> [HistoryEntry] {
        HistoryLines(Data(text.utf8)).entries
    }
}
