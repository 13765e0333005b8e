import ActivityModel
import DBus
import Testing
@testable import LiveActivityCLI

/// A schema like the shipped kinds', so tests need no files.
struct FakeSchema: KeySchema {
    func lookup(kind: String, key: String) -> (KeyDestination, ArgumentType)? {
        switch (kind, key) {
        case ("fasting", "protocol"): return (.attributes, .string)
        case ("fasting", "fasting-hours"): return (.attributes, .integer)
        case ("generic", "title"): return (.state, .string)
        case ("generic", "progress"): return (.state, .number)
        default: return nil
        }
    }
}

/// How `key=value` words become typed attributes and state.
@Suite(.timeLimit(.minutes(5))) struct KeyValueArgumentTests {
    @Test func declaredKeysGoWhereTheKindSaysWithItsType() throws {
        let parsed = try KeyValueArguments(["protocol=16:8", "fasting-hours=18", "note=hi"], kind: "fasting",
                                           schema: FakeSchema(), allowAttributes: true)
        #expect(parsed.attributes == ["protocol": .string("16:8"), "fasting-hours": .int64(18)])
        #expect(parsed.state == ["note": .string("hi")])
    }

    @Test(arguments: [
        ("title=2024", DBusValue.string("2024")),      // declared a string: stays a string
        ("progress=1", .double(1)),                     // declared a number: an integer-looking value is a number
        ("count=3", .int64(3)),                         // undeclared: guessed
        ("ratio=0.5", .double(0.5)),
        ("flag=true", .boolean(true)),
        ("label=16:8", .string("16:8")),
        ("count:s=3", .string("3")),                    // explicit type wins
        ("title:i=7", .int64(7)),
        ("on:b=yes", .boolean(true)),
    ])
    func valuesAreTyped(word: String, expected: DBusValue) throws {
        let parsed = try KeyValueArguments([word], kind: "generic", schema: FakeSchema(), allowAttributes: true)
        #expect(parsed.state.values.first == expected)
    }

    @Test(arguments: [
        ("novalue", "\"novalue\" is not key=value"),
        ("=x", "\"=x\" has an empty key"),
        ("n:i=abc", "n=abc: expected an integer"),
        ("x:q=1", "x:q=1: unknown type \":q\"; use :s, :i, :d or :b"),
        ("attr.protocol=16:8", "protocol: attributes are fixed at start; only state can change"),
    ])
    func badWordsAreUsageErrors(word: String, message: String) {
        #expect(throws: CLIError.usage(message)) {
            try KeyValueArguments([word], kind: "fasting", schema: FakeSchema(), allowAttributes: false)
        }
    }
}

/// Options, positionals and durations of a command line.
@Suite(.timeLimit(.minutes(5))) struct ParsedCommandTests {
    @Test func optionsPositionalsAndKeyValues() throws {
        let spec = try #require(CommandSpec.named("start"))
        let parsed = try ParsedCommand(spec: spec, words: ["generic", "title=A", "--id", "x1", "--relevance=2"])
        #expect(parsed.positionals == ["generic"])
        #expect(parsed.keyValues == ["title=A"])
        #expect(parsed.options == ["id": "x1", "relevance": "2"])
    }

    @Test func unknownOptionAndMissingArgumentAreUsageErrors() throws {
        let spec = try #require(CommandSpec.named("update"))
        #expect(throws: CLIError.usage("update: unknown option --colour; see 'liveactivity update --help'")) {
            try ParsedCommand(spec: spec, words: ["x", "--colour", "red"])
        }
        #expect(throws: CLIError.usage("usage: liveactivity update ID [KEY=VALUE...] [options]")) {
            try ParsedCommand(spec: spec, words: [])
        }
    }

    @Test(arguments: [("90", 90), ("90s", 90), ("25m", 1500), ("2h", 7200), ("1h30m", 5400)] as [(String, Int64)])
    func durations(text: String, seconds: Int64) throws {
        #expect(try ParsedCommand.duration(text, what: "x") == seconds)
    }

    @Test func relativeTimes() throws {
        let spec = try #require(CommandSpec.named("start"))
        let parsed = try ParsedCommand(spec: spec, words: ["generic", "--stale-at", "+10m"])
        #expect(try parsed.time("stale-at", clock: HumanTime(now: 1_000_000, utcOffset: { _ in 0 })) == 1_000_600)
        #expect(throws: CLIError.self) { try ParsedCommand.duration("5x", what: "x") }
    }
}
