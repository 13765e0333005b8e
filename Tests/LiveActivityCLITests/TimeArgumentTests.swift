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

    /// Issue 30: a clock time out of range says which part, and a schedule too far ahead says so
    /// in the words typed, never with the bus option's name or unix seconds.
    @Test func anOutOfRangeClockOrAFarScheduleSaysWhatIsWrong() throws {
        let start = try ParsedCommand(spec: try #require(CommandSpec.named("start")), words: ["focus", "--at", "25:99"])
        #expect(throws: CLIError.usage("--at 25:99: the hour 25 is out of range (0 to 23)")) {
            try start.scheduleTime("at", clock: Self.clock)
        }
        let minute = try ParsedCommand(spec: try #require(CommandSpec.named("start")), words: ["focus", "--at", "tomorrow 12:75"])
        #expect(throws: CLIError.usage("--at tomorrow 12:75: the minute 75 is out of range (0 to 59)")) {
            try minute.scheduleTime("at", clock: Self.clock)
        }
        let far = try ParsedCommand(spec: try #require(CommandSpec.named("start")), words: ["focus", "--at", "+400d"])
        #expect(throws: CLIError.usage("--at +400d: that is 400 days ahead; at most 366 days ahead")) {
            try far.scheduleTime("at", clock: Self.clock)
        }
        #expect(throws: CLIError.usage("start-time=24:00: the hour 24 is out of range (0 to 23)")) {
            try TimeArguments.resolve(["start-time=24:00"], kind: "fasting", schema: FakeTimeSchema(), clock: Self.clock)
        }
        let near = try ParsedCommand(spec: try #require(CommandSpec.named("start")), words: ["focus", "--at", "+366d"])
        #expect(try near.scheduleTime("at", clock: Self.clock) == 1_796_122_800 + 366 * 86_400)
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
