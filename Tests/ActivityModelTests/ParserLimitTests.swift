import Foundation
import Testing
@testable import ActivityModel

/// Issue 18, point 2: templates and duration expressions parse up to their limits
/// (`InputLimits`) and are refused, with the reason, one step past them.
@Suite(.timeLimit(.minutes(5))) struct ParserLimitTests {
    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + "x" + String(repeating: "]", count: depth)
    }

    @Test func templatesNestUpToTheLimit() throws {
        _ = try Template.parse(Self.nested(InputLimits.templateDepth))
        #expect(throws: TemplateSyntaxError.self) { try Template.parse(Self.nested(InputLimits.templateDepth + 1)) }
        #expect(throws: TemplateSyntaxError.self) { try Template.parse(Self.nested(10_000)) }
        _ = try Template.parse(String(repeating: "a", count: InputLimits.templateCharacters))
        #expect(throws: TemplateSyntaxError.self) { try Template.parse(String(repeating: "a", count: InputLimits.templateCharacters + 1)) }
        #expect(throws: TemplateSyntaxError.self) { try Template.parse("a\u{0}b") }
    }

    @Test func expressionsNestUpToTheLimit() throws {
        let depth = InputLimits.expressionDepth
        let parens = String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)
        #expect(try DurationExpression.parse(parens).evaluate { _ in nil } == 1)
        #expect(throws: TemplateSyntaxError.self) { try DurationExpression.parse("(" + parens + ")") }
        let minus = String(repeating: "- ", count: depth) + "1"
        #expect(try DurationExpression.parse(minus).evaluate { _ in nil } == 1)
        #expect(throws: TemplateSyntaxError.self) { try DurationExpression.parse("- " + minus) }
        #expect(throws: TemplateSyntaxError.self) {
            try DurationExpression.parse(String(repeating: "1+", count: InputLimits.expressionCharacters) + "1")
        }
    }

    @Test func kindFilesWithANulOrOverTheSizeAreRefused() {
        let nul = #"{"name": "nul", "display-name": "a\u0000b"}"#
        #expect(throws: KindProblem.self) { try KindCatalog.parse(Data(nul.utf8), file: "nul.json") }
        let escapedBackslash = #"{"name": "ok", "display-name": "a\\u0000b"}"#
        #expect(throws: Never.self) { try KindCatalog.parse(Data(escapedBackslash.utf8), file: "ok.json") }
        let huge = #"{"name": "huge", "display-name": ""# + String(repeating: "a", count: InputLimits.kindFileBytes) + #""}"#
        #expect(throws: KindProblem.self) { try KindCatalog.parse(Data(huge.utf8), file: "huge.json") }
    }

    @Test func aKindDefaultTimeOutOfRangeIsRefused() {
        let json = #"{"name": "future", "attributes": {"at": {"type": "time", "default": 1e300}}}"#
        #expect(throws: KindProblem.self) { try KindCatalog.parse(Data(json.utf8), file: "future.json") }
    }
}
