import Foundation
import Testing

/// Every suite has a time limit (docs/contributing.md; issue 30 found six without one): a test
/// that hangs must fail, not hold its shard until the 10-minute backstop. Read from the test
/// sources: the argument list of each Suite attribute names a `.timeLimit`, and a file with tests declares
/// its suite (an implicit one would have none).
@Suite("Every suite has a time limit", .timeLimit(.minutes(1)))
struct SuiteTimeLimitTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("..").standardized

    /// Each `@Suite` attribute's argument list ("" for a bare `@Suite`), matched by parentheses
    /// outside string literals.
    static func suiteAttributes(in source: String) -> [String] {
        var result: [String] = []
        let characters = Array(source)
        let marker = Array("@Suite")
        var index = 0
        while index + marker.count <= characters.count {
            guard Array(characters[index..<index + marker.count]) == marker else { index += 1; continue }
            var cursor = index + marker.count
            guard cursor < characters.count, characters[cursor] == "(" || characters[cursor].isWhitespace else {
                index = cursor
                continue
            }
            var text = ""
            if characters[cursor] == "(" {
                var depth = 0, inString = false
                repeat {
                    let character = characters[cursor]
                    if character == "\"" { inString.toggle() }
                    if !inString { depth += character == "(" ? 1 : character == ")" ? -1 : 0 }
                    text.append(character)
                    cursor += 1
                } while cursor < characters.count && depth > 0
            }
            result.append(text)
            index = cursor
        }
        return result
    }

    /// The names of the types a Suite attribute declares in `source` (the attribute, then `struct Name`).
    static func suiteTypeNames(in source: String) -> [String] {
        source.components(separatedBy: "@Suite").dropFirst().compactMap { rest in
            let words = rest.split(whereSeparator: { $0.isWhitespace || $0 == "{" || $0 == ":" })
            guard let kind = words.firstIndex(where: { ["struct", "class", "enum", "actor"].contains($0) }),
                  kind + 1 < words.count else { return nil }
            return String(words[kind + 1])
        }
    }

    @Test func everySuiteInTheTestSourcesHasOne() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.tests.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        var missing: [String] = []
        let sources = try files.map { try String(contentsOf: Self.tests.appendingPathComponent($0), encoding: .utf8) }
        let declared = Set(sources.flatMap(Self.suiteTypeNames))
        for (file, source) in zip(files, sources) {
            guard source.contains("@Test") else { continue }
            let suites = Self.suiteAttributes(in: source)
            // Tests may also sit in an extension of a suite declared in another file (and limited there).
            let extendsASuite = declared.contains { source.contains("extension \($0) {") }
            if suites.isEmpty && !extendsASuite { missing.append("\(file): tests outside a declared @Suite") }
            for suite in suites where !suite.contains(".timeLimit(") {
                missing.append("\(file): @Suite\(suite.prefix(60))")
            }
        }
        #expect(files.count > 50, "the test sources were found")
        #expect(missing.isEmpty, "\(missing.joined(separator: "\n"))")
    }
}
