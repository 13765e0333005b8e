import Foundation
import Testing
@testable import ActivityModel

/// The hand-written journal record of an activity reads back through the `Codable`
/// conformance as exactly the same activity, for every shape an activity can have.
@Suite(.timeLimit(.minutes(2))) struct JSONRecordTests {
    /// Activities of every kind and state: timer with phases, paused, ended, stale-at, app name,
    /// awkward strings and numbers.
    static func activities() throws -> [Activity] {
        var registry = shippedRegistry()
        let (focus, _) = try registry.start(kind: "focus", attributes: ["session-type": .string("Deep Work")],
                                            state: ["task": .string("Review\\n \u{1} tab\t ✓ 🍅")],
                                            options: .init(relevance: 0.5, appName: "focus/d", appID: "org.example.Focus"), now: t0 + 0.1)
        _ = try registry.pause(id: focus.rawValue, now: t0 + 60.25)
        let (fast, _) = try registry.start(kind: "fasting", attributes: ["protocol": .string("18:6")], state: [:],
                                           options: .init(staleAt: t0 + 9999), now: t0)
        _ = try registry.end(id: fast.rawValue, options: EndOptions(reason: .cancelled), now: t0 + 120)
        _ = try registry.start(kind: "generic", attributes: ["timer-end": .double(t0 + 300), "n": .int(-42)],
                               state: ["title": .string(""), "x": .double(1e-7), "big": .double(1.5e300),
                                       "neg": .double(-0.0), "on": .bool(true), "off": .bool(false),
                                       "control": .string("\u{7f}\u{0}\r\"\\")],
                               options: .init(id: "gen"), now: t0)
        _ = try registry.start(kind: "focus", attributes: [:], state: [:], now: t0)
        let (later, _) = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("later")],
                                            options: .init(startAt: t0 + 600), now: t0)
        _ = try registry.scheduleUpdate(id: later.rawValue, state: ["title": .string("a \"b\"\n"), "n": .int(3)],
                                        options: UpdateOptions(staleAt: t0 + 900, alertTitle: "⏰", replaceState: true),
                                        at: t0 + 700, now: t0)
        return registry.activities
    }

    @Test func recordDecodesToTheSameActivity() throws {
        let activities = try Self.activities()
        #expect(activities.count == 5)
        #expect(activities.contains { $0.status == .pending && $0.timeline.count == 1 }, "a pending activity with a timeline")
        for activity in activities {
            let record = try #require(activity.jsonRecord())
            #expect(!record.contains(UInt8(ascii: "\n")))
            let decoded = try JSONDecoder().decode(Activity.self, from: Data(record))
            #expect(decoded == activity, "record: \(String(decoding: record, as: UTF8.self))")
        }
    }

    @Test func recordHasTheKeysOfTheEncoder() throws {
        for activity in try Self.activities() {
            let record = try #require(activity.jsonRecord())
            let ours = try JSONSerialization.jsonObject(with: Data(record)) as? NSDictionary
            let theirs = try JSONSerialization.jsonObject(with: JSONEncoder().encode(activity)) as? NSDictionary
            #expect(ours == theirs)
        }
    }
}
