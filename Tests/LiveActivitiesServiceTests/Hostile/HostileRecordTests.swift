import ActivityModel
import Foundation
@testable import Persistence
import Testing
import TestSupport
@testable import LiveActivitiesService

/// Issue 18, points 1 and 3: a state file or journal already holding a time of 1e300 or a NUL
/// (written by an older daemon, edited by hand, damaged) is set aside at load like any
/// unreadable record, so a restart never restores what would crash it or break the bus views.
@Suite(.timeLimit(.minutes(5))) struct HostileRecordTests {
    /// A saved state with two generic activities, "good" and "bad".
    final class World {
        let ground: StateDirectory
        var registry: ActivityRegistry
        var directory: URL { ground.directory }
        var paths: DaemonPaths { ground.paths }

        init() throws {
            ground = try StateDirectory(prefix: "hostile-record")
            registry = ActivityRegistry(catalog: ServiceTestKinds.catalog, idSeed: 1)
            for id in ["good", "bad"] {
                _ = try registry.start(kind: "generic", attributes: [:], state: ["title": .string(id)],
                                       options: StartOptions(id: id), now: 1_000)
            }
            try StateStore(paths: paths).saveAll(PersistedState(registry: registry.snapshot))
        }

        var stateFile: URL { ground.stateFile }
        var journal: URL { ground.journal }

        /// Rewrites activity "bad" of state.json: the first match of the regular expression
        /// `pattern` after its id becomes `new`.
        func edit(_ pattern: String, _ new: String) throws {
            var text = try String(contentsOf: stateFile, encoding: .utf8)
            let start = try #require(text.range(of: "\"id\":\"bad\""))
            let range = try #require(text.range(of: pattern, options: .regularExpression, range: start.upperBound..<text.endIndex),
                                     "\(pattern) in \(text)")
            text.replaceSubrange(range, with: new)
            try text.write(to: stateFile, atomically: true, encoding: .utf8)
        }
    }

    /// Each a (pattern of a field as saved, hostile replacement) of activity "bad".
    static let hostileFields: [(String, String)] = [
        ("\"startedAt\":[-0-9.e+]+", "\"startedAt\":1e300"),
        ("\"updatedAt\":[-0-9.e+]+", "\"updatedAt\":-9.3e18"),
        ("\"relevance\":[-0-9.e+]+", "\"relevance\":0,\"staleAt\":9.3e18"),
        ("\"title\":\\{\"s\":\"bad\"\\}", "\"title\":{\"s\":\"evil\\u0000tail\"}"),
        ("\"title\":\\{\"s\":\"bad\"\\}", "\"ti\\u0000tle\":{\"s\":\"bad\"}"),
    ]

    @Test(arguments: hostileFields.indices)
    func aStateRecordOutOfRangeIsSetAside(index: Int) throws {
        let w = try World()
        let (old, new) = Self.hostileFields[index]
        try w.edit(old, new)
        let store = StateStore(paths: w.paths)
        let loaded = try #require(store.load(now: 5_000))
        #expect(loaded.registry.activities.map(\.id.rawValue) == ["good"], "only the good record is restored")
        #expect(store.status.contains("\"bad\""), "StorageStatus names the record set aside: \(store.status)")
        for activity in loaded.registry.activities { #expect(activity.recordProblem == nil) }
    }

    /// A scheduled update saved with a NUL in its state would be merged into the live state
    /// when due: the record holding it is set aside at load like the others.
    @Test func aScheduledUpdateWithANulIsSetAside() throws {
        let w = try World()
        _ = try w.registry.scheduleUpdate(id: "bad", state: ["body": .string("later")], at: 2_000, now: 1_001)
        try StateStore(paths: w.paths).saveAll(PersistedState(registry: w.registry.snapshot))
        try w.edit("\"later\"", "\"la\\u0000ter\"")
        let store = StateStore(paths: w.paths)
        let loaded = try #require(store.load(now: 1_500))
        #expect(loaded.registry.activities.map(\.id.rawValue) == ["good"], "only the good record is restored")
        #expect(store.status.contains("\"bad\""), "StorageStatus names the record set aside: \(store.status)")
    }

    @Test func aJournalRecordOutOfRangeIsSkipped() throws {
        let w = try World()
        let header = try #require(String(contentsOf: w.journal, encoding: .utf8).split(separator: "\n").first)
        _ = try w.registry.update(id: "good", state: ["body": .string("journaled")], now: 1_001)
        let good = try #require(w.registry.activity("good")?.jsonRecord())
        let text = try #require(String(bytes: good, encoding: .utf8))
        let hostile = text.replacingOccurrences(of: "\"updatedAt\":1001.0", with: "\"updatedAt\":1e300")
            .replacingOccurrences(of: "journaled", with: "hostile")
        #expect(hostile.contains("1e300") && hostile.contains("hostile"))
        try Data((header + "\n" + text + "\n" + hostile + "\n").utf8).write(to: w.journal)
        let store = StateStore(paths: w.paths)
        let loaded = try #require(store.load(now: 5_000))
        let restored = loaded.registry.activities.first { $0.id.rawValue == "good" }
        #expect(restored?.state["body"] == .string("journaled"), "the hostile record after the good one is not applied")
        #expect(store.status.contains("1 journal record(s) skipped"), "\(store.status)")
    }
}
