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

    /// The entry as one line of JSON (no newline), keys sorted.
    public func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// Whether every time and duration is finite and within years 1970–9999, so no day or
    /// clock conversion of it can trap. A line out of range is set aside like an undecodable one.
    public var isWithinRange: Bool {
        InputLimits.isTime(startedAt) && InputLimits.isTime(endedAt) && InputLimits.isDuration(activeSeconds) && activeSeconds >= 0
    }

    /// Reads a history file's text; lines that are empty, not entries or out of range are skipped.
    public static func parse(jsonLines text: String) -> [HistoryEntry] {
        let decoder = JSONDecoder()
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            (try? decoder.decode(HistoryEntry.self, from: Data(line.utf8))).flatMap { $0.isWithinRange ? $0 : nil }
        }
    }
}
