import Foundation
import Testing
@testable import ActivityModel
import ActivityFiles

/// Loading kind files: the shipped ones, overrides, and malformed files reported by name.
@Suite(.timeLimit(.minutes(2))) struct KindLoadingTests {
    @Test func shippedKindsLoadWithoutProblems() throws {
        #expect(shippedCatalog.problems == [])
        #expect(shippedCatalog.names == ["fasting", "focus", "generic"])
        let focus = try #require(shippedCatalog.kind(named: "focus"))
        #expect(focus.displayName == "Focus" && focus.hasTimer)
        #expect(focus.attributes["session-type"]?.derived["Flow State"] == ["minutes": .int(90)])
        let generic = try #require(shippedCatalog.kind(named: "generic"))
        #expect(generic.state["progress"]?.expectation == "a number from 0 to 1")
        #expect(generic.acceptsExtraState)
    }

    /// A fresh directory under the system temporary directory, removed by the caller.
    func makeDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kinds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test(arguments: [
        (#"{"name": "broken", "attributes": {"x": {"type": "strng"}}}"#, "attributes.x.type"),
        (#"{"name": "broken", "templats": {}}"#, "unknown key \"templats\""),
        (#"{"name": "broken", "state": {"p": {"type": "number", "min": 0, "max": 1, "default": 2}}}"#,
         "state.p.default: expected a number from 0 to 1, got integer 2"),
        (#"{"name": "broken", "buttons": [{"action": "explode", "label": "Boom"}]}"#, "buttons[0].action"),
        (#"{"name": "broken", "phases": [{"name": "a"}]}"#, "phases: phases need a timer"),
        (#"{"name": "other"}"#, "so the file must be other.json"),
        (#"{"name": "broken", "#, "JSON"),
    ])
    func malformedFileIsReportedAndOthersStillLoad(json: String, fragment: String) throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(json.utf8).write(to: directory.appendingPathComponent("broken.json"))
        try Data(#"{"name": "fine", "templates": {"title": "Fine"}}"#.utf8).write(to: directory.appendingPathComponent("fine.json"))

        let catalog = KindCatalog.load(directories: [shippedKindsDirectory, directory.path])
        #expect(catalog.names == ["fasting", "fine", "focus", "generic"])
        let problem = try #require(catalog.problems.first)
        #expect(catalog.problems.count == 1)
        #expect(problem.file == directory.appendingPathComponent("broken.json").path)
        #expect(problem.message.contains(fragment), "\(problem.message)")
    }

    @Test func laterDirectoriesOverrideKindsByName() throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let override = #"{"name": "focus", "display-name": "Deep focus", "templates": {"title": "{kind}"}}"#
        try Data(override.utf8).write(to: directory.appendingPathComponent("focus.json"))
        let catalog = KindCatalog.load(directories: [shippedKindsDirectory, directory.path + "/", "/nonexistent/kinds"])
        #expect(catalog.kind(named: "focus")?.displayName == "Deep focus")
        #expect(catalog.kind(named: "fasting")?.displayName == "Fasting")
        #expect(catalog.problems.isEmpty)
    }

    @Test func durationExpressionsReadAttributes() throws {
        let expression = try DurationExpression.parse("(24 - fasting-hours) * 2 / 4")
        #expect(expression.evaluate { $0 == "fasting-hours" ? 16 : nil } == 4)
        #expect(expression.attributeNames == ["fasting-hours"])
        #expect(throws: TemplateSyntaxError.self) { try DurationExpression.parse("24 -") }
    }

    @Test func registrySnapshotRoundTripsThroughJSON() throws {
        var registry = shippedRegistry()
        let (focus, _) = try registry.start(kind: "focus", attributes: ["session-type": .string("Deep Work")],
                                            state: ["task": .string("Review")], options: .init(relevance: 0.5, appName: "focusd"), now: t0)
        _ = try registry.pause(id: focus.rawValue, now: t0 + 60)
        let (fast, _) = try registry.start(kind: "fasting", attributes: ["protocol": .string("18:6")], state: [:],
                                           options: .init(staleAt: t0 + 9999), now: t0)
        _ = try registry.end(id: fast.rawValue, options: EndOptions(reason: .cancelled), now: t0 + 120)
        registry.enabled = false

        let json = try JSONEncoder().encode(registry.snapshot)
        let decoded = try JSONDecoder().decode(RegistrySnapshot.self, from: json)
        #expect(decoded == registry.snapshot)
        var restored = ActivityRegistry(catalog: shippedCatalog, snapshot: decoded)
        #expect(!restored.enabled)
        #expect(restored.activities == registry.activities)
        for activity in registry.activities {
            #expect(restored.render(activity, now: t0 + 500, timeZoneOffset: 0) == registry.render(activity, now: t0 + 500, timeZoneOffset: 0))
        }
        // The id generator continues rather than repeating ids.
        restored.enabled = true
        registry.enabled = true
        let next = try restored.start(kind: "generic", attributes: [:], state: [:], now: t0 + 600).id
        #expect(next == (try registry.start(kind: "generic", attributes: [:], state: [:], now: t0 + 600).id))
        #expect(next != focus && next != fast)
    }

    @Test func activityOfAVanishedKindStillRendersAndEnds() throws {
        var registry = shippedRegistry()
        let (id, _) = try registry.start(kind: "focus", attributes: [:], state: [:], now: t0)
        var restored = ActivityRegistry(catalog: KindCatalog(), snapshot: registry.snapshot)
        #expect(try restored.render(id: id.rawValue, now: t0 + 60, timeZoneOffset: 0).compactTrailing == "24:00")
        #expect(restored.tick(now: t0 + 1500, timeZoneOffset: 0).contains(.statusChanged(id, .ended)))
    }
}
