import Foundation
import Testing
@testable import ActivityModel

@Suite(.timeLimit(.minutes(2))) struct ValueAndIDTests {
    @Test(arguments: [
        (Value.string("abc"), "string \"abc\""),
        (.int(5), "integer 5"),
        (.double(1.5), "number 1.5"),
        (.double(2), "number 2"),
        (.bool(true), "boolean true"),
    ])
    func typeDescriptions(value: Value, expected: String) {
        #expect(value.typeDescription == expected)
    }

    @Test func valueJSONKeepsIntegersAndNumbersApart() throws {
        let values: [String: Value] = ["a": .string("x"), "b": .int(16), "c": .double(16), "d": .bool(false)]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(values), as: UTF8.self)
        #expect(json == #"{"a":{"s":"x"},"b":{"i":16},"c":{"d":16},"d":{"b":false}}"#)
        #expect(try JSONDecoder().decode([String: Value].self, from: Data(json.utf8)) == values)
    }

    @Test(arguments: ["a", "A_1", "focus_2024", String(repeating: "x", count: 64)])
    func validIDs(text: String) throws {
        #expect(try ActivityID(text).rawValue == text)
    }

    @Test(arguments: ["", "a-b", "a b", "é", "a/b", String(repeating: "x", count: 65)])
    func invalidIDs(text: String) {
        let error = thrownError { try ActivityID(text) }
        #expect(error == .invalidArgument("id \"\(text)\": expected 1 to 64 letters, digits or underscores"))
        #expect(error?.name == "InvalidArgs")
    }

    @Test func generatedIDsAreShortUniqueAndDeterministic() {
        var first = ActivityIDGenerator(seed: 42)
        var second = ActivityIDGenerator(seed: 42)
        let ids = (0..<1000).map { _ in first.next() }
        #expect(Set(ids).count == 1000)
        #expect(ids.allSatisfy { $0.rawValue.count == 8 && ActivityID.isValid($0.rawValue) })
        #expect(Array(ids.prefix(3)) == (0..<3).map { _ in second.next() })
        var other = ActivityIDGenerator(seed: 43)
        #expect(other.next() != ids[0])
    }

    @Test func errorNamesAreTheDBusSuffixes() {
        let table: [(ActivityError, String)] = [
            (.notFound(""), "NotFound"), (.alreadyExists(""), "AlreadyExists"),
            (.unknownKind(""), "UnknownKind"), (.notActive(""), "NotActive"),
            (.payloadTooLarge(""), "PayloadTooLarge"), (.tooManyActivities(""), "TooManyActivities"),
            (.disabled(""), "Disabled"), (.invalidArgument(""), "InvalidArgs"),
        ]
        for (error, name) in table { #expect(error.name == name) }
    }
}
