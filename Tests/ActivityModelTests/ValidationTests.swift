import Testing
@testable import ActivityModel

/// Every refusal with its exact D-Bus name and message, and that a refused call changes nothing.
@Suite(.timeLimit(.minutes(2))) struct ValidationTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let kind: String
        let attributes: [String: Value]
        let state: [String: Value]
        let options: StartOptions
        let name: String
        let message: String
        var testDescription: String { label }
    }

    static let startCases: [Case] = [
        Case(label: "bad type", kind: "generic", attributes: [:], state: ["progress": .string("abc")], options: .init(),
             name: "InvalidArgs", message: "state key \"progress\": expected a number from 0 to 1, got string \"abc\""),
        Case(label: "progress out of range", kind: "generic", attributes: [:], state: ["progress": .double(1.5)], options: .init(),
             name: "InvalidArgs", message: "state key \"progress\": expected a number from 0 to 1, got number 1.5"),
        Case(label: "unknown kind", kind: "foo", attributes: [:], state: [:], options: .init(),
             name: "UnknownKind", message: "unknown kind \"foo\"; known kinds: fasting, focus, generic"),
        Case(label: "unknown attribute", kind: "focus", attributes: ["minute": .int(5)], state: [:], options: .init(),
             name: "InvalidArgs",
             message: "unknown attribute \"minute\" for kind \"focus\"; known attributes: minutes, session-type, start-time"),
        Case(label: "unknown state key of a closed kind", kind: "fasting", attributes: [:], state: ["mood": .string("ok")], options: .init(),
             name: "InvalidArgs", message: "unknown state key \"mood\" for kind \"fasting\"; this kind has no state keys"),
        Case(label: "value not allowed", kind: "focus", attributes: ["session-type": .string("Nap")], state: [:], options: .init(),
             name: "InvalidArgs",
             message: "attribute \"session-type\": expected one of \"Pomodoro\", \"Deep Work\", \"Flow State\", got string \"Nap\""),
        Case(label: "fraction for an integer", kind: "focus", attributes: ["minutes": .double(2.5)], state: [:], options: .init(),
             name: "InvalidArgs", message: "attribute \"minutes\": expected an integer from 1 to 1440, got number 2.5"),
        Case(label: "string for a time", kind: "focus", attributes: ["start-time": .string("now")], state: [:], options: .init(),
             name: "InvalidArgs", message: "attribute \"start-time\": expected a time in unix seconds, got string \"now\""),
        Case(label: "protocol and hours disagree", kind: "fasting",
             attributes: ["protocol": .string("16:8"), "fasting-hours": .int(20)], state: [:], options: .init(),
             name: "InvalidArgs",
             message: "attribute \"fasting-hours\": protocol \"16:8\" means 16, got integer 20; give only one of them"),
        Case(label: "timer end before start", kind: "generic",
             attributes: ["timer-start": .int(Int64(t0)), "timer-end": .int(Int64(t0) - 100)], state: [:], options: .init(),
             name: "InvalidArgs", message: "attribute \"timer-end\": expected a time after the start 1699963200, got 1699963100"),
        Case(label: "too large", kind: "generic", attributes: [:], state: ["body": .string(String(repeating: "x", count: 5000))],
             options: .init(), name: "PayloadTooLarge", message: "attributes and state are 5004 bytes; the limit is 4096"),
        Case(label: "bad id shape", kind: "generic", attributes: [:], state: [:], options: .init(id: "a-b"),
             name: "InvalidArgs", message: "id \"a-b\": expected 1 to 64 letters, digits or underscores"),
        Case(label: "duplicate id", kind: "generic", attributes: [:], state: [:], options: .init(id: "taken"),
             name: "AlreadyExists", message: "an activity with id \"taken\" already exists (status active); choose another id"),
        Case(label: "infinite relevance", kind: "generic", attributes: [:], state: [:], options: .init(relevance: .infinity),
             name: "InvalidArgs", message: "option \"relevance\": expected a finite number, got number inf"),
    ]

    @Test(arguments: startCases)
    func startRefusals(_ example: Case) throws {
        var registry = shippedRegistry()
        _ = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("x")],
                               options: .init(id: "taken"), now: t0)
        let before = registry.snapshot
        let error = thrownError {
            try registry.start(kind: example.kind, attributes: example.attributes, state: example.state,
                               options: example.options, now: t0 + 1)
        }
        #expect(error?.name == example.name)
        #expect(error?.message == example.message)
        #expect(registry.snapshot == before)
    }

    @Test func unknownStateKeysAreAcceptedByGeneric() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "generic", attributes: ["origin": .string("cli")],
                                         state: ["custom": .int(3)], now: t0)
        #expect(registry.activity(id.rawValue)?.state["custom"] == .int(3))
        #expect(registry.activity(id.rawValue)?.attributes["origin"] == .string("cli"))
    }

    @Test func tooManyLiveActivities() throws {
        var registry = shippedRegistry(limits: Limits(maxLiveActivities: 2))
        _ = try registry.start(kind: "generic", attributes: [:], state: [:], now: t0)
        let (second, _) = try registry.start(kind: "generic", attributes: [:], state: [:], now: t0)
        let error = thrownError { try registry.start(kind: "generic", attributes: [:], state: [:], now: t0) }
        #expect(error == .tooManyActivities("2 activities are live or pending; the limit is 2; end one first"))
        _ = try registry.end(id: second.rawValue, now: t0)
        #expect(thrownError { try registry.start(kind: "generic", attributes: [:], state: [:], now: t0) } == nil)
    }

    @Test func disabledRegistryRefusesStart() {
        var registry = shippedRegistry()
        registry.enabled = false
        let error = thrownError { try registry.start(kind: "generic", attributes: [:], state: [:], now: t0) }
        #expect(error?.name == "Disabled")
        #expect(error?.message == "live activities are disabled; set Enabled to true to start one")
        #expect(registry.activities.isEmpty)
    }

    @Test func endedButNotDismissedIDStillExists() throws {
        var registry = shippedRegistry()
        _ = try registry.start(kind: "generic", attributes: [:], state: [:], options: .init(id: "x"), now: t0)
        _ = try registry.end(id: "x", now: t0 + 1)
        let error = thrownError { try registry.start(kind: "generic", attributes: [:], state: [:], options: .init(id: "x"), now: t0 + 2) }
        #expect(error == .alreadyExists("an activity with id \"x\" already exists (status ended); choose another id"))
    }

    @Test func callsOnMissingOrEndedActivities() throws {
        var registry = shippedRegistry()
        _ = try registry.start(kind: "focus", attributes: [:], state: [:], options: .init(id: "x"), now: t0)
        _ = try registry.end(id: "x", now: t0 + 1)
        let before = registry.snapshot
        let table: [(ActivityError?, ActivityError)] = [
            (thrownError { try registry.update(id: "nope", state: [:], now: t0) }, .notFound("no activity with id \"nope\"")),
            (thrownError { try registry.update(id: "x", state: [:], now: t0 + 2) },
             .notActive("activity \"x\" is ended; only live activities can be updated")),
            (thrownError { try registry.end(id: "x", now: t0 + 2) },
             .notActive("activity \"x\" is ended; only live activities can be ended")),
            (thrownError { try registry.pause(id: "x", now: t0 + 2) },
             .notActive("activity \"x\" is ended; only live activities can be paused")),
            (thrownError { try registry.update(id: "a b", state: [:], now: t0) },
             .invalidArgument("id \"a b\": expected 1 to 64 letters, digits or underscores")),
        ]
        for (thrown, expected) in table { #expect(thrown == expected) }
        #expect(registry.snapshot == before)
    }

    @Test func refusedUpdateAndEndChangeNothing() throws {
        var registry = shippedRegistry()
        _ = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("a")],
                               options: .init(id: "g"), now: t0)
        let before = registry.snapshot
        let table: [(ActivityError?, ActivityError)] = [
            (thrownError { try registry.update(id: "g", state: ["title": .string("b"), "progress": .bool(true)], now: t0 + 1) },
             .invalidArgument("state key \"progress\": expected a number from 0 to 1, got boolean true")),
            (thrownError { try registry.update(id: "g", state: ["body": .string(String(repeating: "y", count: 4100))], now: t0 + 1) },
             .payloadTooLarge("attributes and state are 4110 bytes; the limit is 4096")),
            (thrownError { _ = try EndReason(parsing: "done") },
             .invalidArgument("option \"reason\": expected one of \"completed\", \"cancelled\", \"ended\", got string \"done\"")),
            (thrownError { try registry.end(id: "g", options: EndOptions(dismissal: "later"), now: t0 + 1) },
             .invalidArgument("option \"dismissal\": expected \"default\" or \"immediate\", got string \"later\"")),
            (thrownError { try registry.pause(id: "g", now: t0 + 1) },
             .invalidArgument("activity \"g\" (kind \"generic\") has no timer to pause")),
            (thrownError { try registry.extend(id: "g", seconds: 60, now: t0 + 1) },
             .invalidArgument("activity \"g\" (kind \"generic\") has no timer to extend")),
        ]
        for (thrown, expected) in table { #expect(thrown == expected) }
        #expect(registry.snapshot == before)
    }

    @Test func pauseResumeExtendRefusals() throws {
        var registry = shippedRegistry()
        _ = try registry.start(kind: "focus", attributes: [:], state: [:], options: .init(id: "f"), now: t0)
        #expect(thrownError { try registry.resume(id: "f", now: t0) } == .invalidArgument("activity \"f\" is not paused"))
        _ = try registry.pause(id: "f", now: t0 + 1)
        #expect(thrownError { try registry.pause(id: "f", now: t0 + 2) } == .invalidArgument("activity \"f\" is already paused"))
        #expect(thrownError { try registry.extend(id: "f", seconds: 0, now: t0 + 2) }
                == .invalidArgument("seconds: expected a number of seconds from 1 to 604800, got integer 0"))
    }
}
