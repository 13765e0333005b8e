import Foundation
import Glibc
@testable import Persistence
import Testing

/// The history's line reader, which every byte of a rotation passes through: lines across
/// chunk boundaries, a last line without a newline, lines longer than the limit in pieces,
/// and the `ended-at` probe that reads one field of a line without decoding it.
@Suite(.timeLimit(.minutes(1))) struct HistoryLineReaderTests {
    /// Everything the reader hands out for `text`, read from a real file.
    static func read(_ bytes: [UInt8], limit: Int? = nil) throws -> (pieces: [([UInt8], Bool)], consumed: Int) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("line-reader-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let fd = open(path, O_RDONLY)
        #expect(fd >= 0)
        defer { close(fd) }
        var reader = HistoryLineReader(fd: fd, limit: limit ?? bytes.count)
        var pieces: [([UInt8], Bool)] = []
        while let (piece, endsLine) = reader.next() { pieces.append((Array(piece), endsLine)) }
        return (pieces, reader.consumed)
    }

    @Test func linesAcrossChunkBoundariesComeOutWhole() throws {
        // Lines of 1 to 299 bytes: many straddle the 64 KB chunks.
        var lines: [[UInt8]] = []
        var total = 0
        var n = 0
        while total < 3 * HistoryLineReader.chunkBytes + 1_000 {
            let line = Array(String(repeating: Character(UnicodeScalar(UInt8(97 + n % 26))), count: 1 + n % 299).utf8)
            lines.append(line)
            total += line.count + 1
            n += 1
        }
        let text: [UInt8] = lines.flatMap { line -> [UInt8] in line + [10] }
        let result = try Self.read(text)
        #expect(result.pieces.map { $0.0 } == lines)
        #expect(result.pieces.allSatisfy { $0.1 })
        #expect(result.consumed == text.count)
    }

    @Test func aLastLineWithoutNewlineAndALimitShorterThanTheFile() throws {
        let result = try Self.read(Array("one\ntwo\nthree".utf8))
        #expect(result.pieces.map { String(decoding: $0.0, as: UTF8.self) } == ["one", "two", "three"])
        #expect(result.pieces.allSatisfy { $0.1 })
        let limited = try Self.read(Array("one\ntwo\nthree\n".utf8), limit: 6)
        #expect(limited.pieces.map { String(decoding: $0.0, as: UTF8.self) } == ["one", "tw"])
    }

    @Test func aLineOverTheLimitComesInPiecesThenTheNextLine() throws {
        let long = [UInt8](repeating: 120, count: HistoryLineReader.maxLineBytes + 3 * HistoryLineReader.chunkBytes + 5)
        let text = Array("first\n".utf8) + long + Array("\nafter\n".utf8)
        let result = try Self.read(text)
        #expect(result.pieces.first.map { String(decoding: $0.0, as: UTF8.self) } == "first")
        #expect(result.pieces.last.map { String(decoding: $0.0, as: UTF8.self) } == "after")
        let middle = result.pieces.dropFirst().dropLast()
        #expect(middle.count >= 2, "the long line came in pieces")
        #expect(middle.dropLast().allSatisfy { !$0.1 } && middle.last?.1 == true, "only its last piece ends the line")
        #expect(middle.allSatisfy { $0.0.count <= HistoryLineReader.maxLineBytes + HistoryLineReader.chunkBytes })
        #expect(middle.flatMap { $0.0 } == long)
        #expect(result.consumed == text.count)
    }

    @Test func endedAtReadsTheFieldAndRefusesWhatIsNotATime() {
        func probe(_ line: String) -> Double? { HistoryRotation.endedAt(in: ArraySlice(Array(line.utf8))) }
        #expect(probe(#"{"active-seconds":10,"ended-at":1700000000.5,"id":"a"}"#) == 1_700_000_000.5)
        #expect(probe(#"{"ended-at":12}"#) == 12)
        #expect(probe(#"{"note":"ended-at","ended-at":7,"x":1}"#) == 7, "a quote that is not the key is passed over")
        #expect(probe(#"{"ended-at":-1e300}"#) == nil)
        #expect(probe(#"{"ended-at":1e300}"#) == nil)
        #expect(probe(#"{"ended-at":nan}"#) == nil)
        #expect(probe(#"{"ended-at":}"#) == nil)
        #expect(probe(#"{"id":"no time"}"#) == nil)
        #expect(probe(#""ended-at""#) == nil)
        #expect(probe("") == nil)
    }
}
