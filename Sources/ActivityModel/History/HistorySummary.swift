#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `stats` needs of history entries folded out of `history.jsonl` when it rotates: per
/// kind, the counts by reason and the completed seconds of each local day (which give today's
/// total and the day streak). Entries ending at or before `foldedThrough` are counted here
/// and ignored in the file, so a crash between writing the summary and the shortened file
/// never counts an entry twice.
public struct HistorySummary: Codable, Equatable, Sendable {
    /// Figures of one kind.
    public struct Folded: Codable, Equatable, Sendable {
        public var completed = 0
        public var cancelled = 0
        public var ended = 0
        /// Completed active seconds per local day number (days since 1970-01-01, local time at folding).
        public var completedSecondsByDay: [String: Double] = [:]
    }

    public var foldedThrough: UnixTime = -.infinity
    public var kinds: [String: Folded] = [:]

    public init() {}

    enum CodingKeys: String, CodingKey {
        case foldedThrough = "folded-through", kinds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        foldedThrough = try container.decodeIfPresent(Double.self, forKey: .foldedThrough) ?? -.infinity
        kinds = try container.decode([String: Folded].self, forKey: .kinds)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if foldedThrough.isFinite { try container.encode(foldedThrough, forKey: .foldedThrough) }
        try container.encode(kinds, forKey: .kinds)
    }

    /// Counts `entries` in (each must end after `foldedThrough`), with local days at `timeZoneOffset`.
    public mutating func fold(_ entries: [HistoryEntry], timeZoneOffset: Double) {
        for entry in entries {
            var folded = kinds[entry.kind] ?? Folded()
            switch entry.reason {
            case .completed:
                folded.completed += 1
                let day = String(Statistics.localDay(entry.endedAt, timeZoneOffset))
                folded.completedSecondsByDay[day, default: 0] += entry.activeSeconds
            case .cancelled: folded.cancelled += 1
            case .ended: folded.ended += 1
            }
            kinds[entry.kind] = folded
            foldedThrough = max(foldedThrough, entry.endedAt)
        }
    }
}
