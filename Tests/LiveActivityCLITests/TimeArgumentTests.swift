import ActivityModel
import DBus
import Testing
@testable import LiveActivityCLI

/// The shipped kinds' time keys, so tests need no files.
struct FakeTimeSchema: KeySchema, TimeKeySchema {
    func lookup(kind: String, key: String) -> (KeyDestination, ArgumentType)? {
        isTimeKey(kind: kind, key: key) ? (.attributes, .integer) : nil
    }
    func isTimeKey(kind: String, key: String) -> Bool {
        ["start-time", "timer-start", "timer-end"].contains(key)
    }
}

/// Human times in time-typed `key=value` words and time options become unix seconds.
@Suite(.timeLimit(.minutes(5))) struct TimeArgumentTests {
    /// 2026-12-01 11:00 UTC, read in UTC.
    static let clock = HumanTime(now: 1_796_122_800, utcOffset: { _ in 0 })

    @Test(arguments: [
        ("start-time=20:00", "start-time=1796068800"),        // a start: last night
        ("timer-end=20:00", "timer-end=1796155200"),          // an end: tonight
        ("attr.timer-start=-3h", "attr.timer-start=1796112000"),
        ("start-time=yesterday 20:00", "start-time=1796068800"),
        ("start-time=2026-12-01T01:00:00Z", "start-time=1796086800"),
        ("start-time=1796000000", "start-time=1796000000"),
        ("start-time:s=20:00", "start-time:s=20:00"),         // an explicit type is left alone
        ("protocol=18:6", "protocol=18:6"),                   // not a time key
    ])
    func timeKeysBecomeUnixSeconds(word: String, expected: String) throws {
        #expect(try TimeArguments.resolve([word], kind: "fasting", schema: FakeTimeSchema(), clock: Self.clock) == [expected])
    }

    @Test func aBadTimeNamesTheAcceptedForms() {
        #expect(throws: CLIError.usage("start-time=soon: expected a time: \(HumanTime.acceptedForms)")) {
            try TimeArguments.resolve(["start-time=soon"], kind: "fasting", schema: FakeTimeSchema(), clock: Self.clock)
        }
    }

    @Test func optionsTakeTheSameForms() throws {
        let spec = try #require(CommandSpec.named("end"))
        let parsed = try ParsedCommand(spec: spec, words: ["x", "--dismiss-at", "20:00"])
        #expect(try parsed.time("dismiss-at", clock: Self.clock) == 1_796_155_200)
        let update = try ParsedCommand(spec: try #require(CommandSpec.named("update")), words: ["x", "--stale-at", "tomorrow 08:00"])
        #expect(try update.time("stale-at", clock: Self.clock) == 1_796_198_400)
        let bad = try ParsedCommand(spec: spec, words: ["x", "--dismiss-at", "later"])
        #expect(throws: CLIError.usage("--dismiss-at later: expected a time: \(HumanTime.acceptedForms)")) {
            try bad.time("dismiss-at", clock: Self.clock)
        }
    }
}
