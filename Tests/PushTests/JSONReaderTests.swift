import Push
import Testing

/// The JSON reader of push payloads: integers stay integers, errors name a byte offset.
@Suite("JSON reader", .timeLimit(.minutes(2)))
struct JSONReaderTests {
    private func parse(_ text: String) throws -> JSONValue { try JSONReader.parse(Array(text.utf8)) }

    @Test(arguments: [
        ("5", JSONValue.int(5)), ("-12", .int(-12)), ("5.0", .double(5)), ("1e3", .double(1000)), ("0.25", .double(0.25)),
        ("true", .bool(true)), ("null", .null), ("\"a\\u00e9\\n\"", .string("aé\n")), ("\"\\ud83c\\udf55\"", .string("🍕")),
        (" [1, \"x\"] ", .array([.int(1), .string("x")])), ("{\"a\": {\"b\": false}}", .object(["a": .object(["b": .bool(false)])])),
    ])
    func readsValues(text: String, expected: JSONValue) throws {
        #expect(try parse(text) == expected)
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 8), ("[1 2]", 3), ("01", 1), ("\"abc", 4), ("tru", 3), ("{} x", 3), ("\"\\x\"", 2), ("1.", 2),
        ("\"\\ud800\"", 7),
    ])
    func refusesBadTextWithItsOffset(text: String, offset: Int) {
        #expect(throws: JSONReader.SyntaxError.self) { try parse(text) }
        do { _ = try JSONReader.parse(Array(text.utf8)) } catch { #expect(error.offset == offset, "\(text): \(error)") }
    }

    @Test func boundsNesting() {
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(throws: JSONReader.SyntaxError.self) { try parse(deep) }
    }

    @Test func integerTooLargeForInt64BecomesADouble() throws {
        #expect(try parse("18446744073709551616") == .double(18446744073709551616))
    }
}
