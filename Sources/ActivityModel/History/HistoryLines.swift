#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a history file holds: the entries read from it and how many lines could not be read.
/// Lines end at LF bytes only, as the daemon writes them: a line or paragraph separator inside
/// a title (U+2028, U+2029, U+0085, which older daemons wrote raw) never splits an entry, and
/// a line that is damaged, not an entry or out of range is counted, so `history` and `stats`
/// can say what they left out instead of dropping it without a word.
public struct HistoryLines: Equatable, Sendable {
    public var entries: [HistoryEntry] = []
    /// Lines with something on them that are not a usable entry.
    public var unreadableLines = 0

    /// Reads a history file's bytes (invalid UTF-8 spoils only its own line).
    public init(_ data: Data) {
        let decoder = JSONDecoder()
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            guard line.contains(where: { !Self.isJSONWhitespace($0) }) else { continue }
            if let entry = try? decoder.decode(HistoryEntry.self, from: Data(line)), entry.isWithinRange {
                entries.append(entry)
            } else {
                unreadableLines += 1
            }
        }
    }

    /// "1 history line could not be read", for the end of `history` and `stats`.
    public static func unreadableNote(_ count: Int) -> String {
        count == 1 ? "1 history line could not be read" : "\(count) history lines could not be read"
    }

    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
