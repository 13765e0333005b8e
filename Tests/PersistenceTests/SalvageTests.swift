import ActivityFiles
import ActivityModel
import Foundation
@testable import Persistence
import Testing
import TestSupport

/// Partial salvage of damaged state (issue 14, fault 5): one bad record never drops the
/// others, every skip is named precisely, and copies set aside never overwrite each other.
@Suite(.timeLimit(.minutes(5))) struct SalvageTests {
    /// A store with two activities, "good" and "bad", saved in full.
    final class World {
        let ground: StateDirectory
        var registry: ActivityRegistry
        var directory: URL { ground.directory }
        var paths: DaemonPaths { ground.paths }

        init() throws {
            ground = try StateDirectory(prefix: "salvage")
            registry = ActivityRegistry(catalog: KindCatalog.load(directories: ground.paths.kindDirectories), idSeed: 1)
            for id in ["good", "bad"] {
                _ = try registry.start(kind: "generic", attributes: [:], state: ["title": .string(id)],
                                       options: StartOptions(id: id), now: 1_000)
            }
            try StateStore(paths: paths).saveAll(PersistedState(registry: registry.snapshot))
        }

        var stateFile: URL { ground.stateFile }
        var journal: URL { ground.journal }

        func copies(of name: String) throws -> [String] { try ground.corruptCopies(of: name) }

        /// Replaces the `"status":"active"` of activity "bad" in state.json with a number.
        func damageOneActivity() throws {
            var text = try String(contentsOf: stateFile, encoding: .utf8)
            let start = try #require(text.range(of: "\"id\":\"bad\""))
            let status = try #require(text.range(of: "\"status\":\"active\"", range: start.upperBound..<text.endIndex)
                                      ?? text.range(of: "\"status\":\"active\""))
            text.replaceSubrange(status, with: "\"status\":42")
            try text.write(to: stateFile, atomically: true, encoding: .utf8)
        }
    }

    @Test func oneWrongTypedActivitySetsAsideOnlyThatOne() throws {
        let w = try World()
        try w.damageOneActivity()
        let store = StateStore(paths: w.paths)
        let loaded = try #require(store.load(now: 5_000))
        #expect(loaded.registry.activities.map(\.id.rawValue) == ["good"])
        #expect(store.status.contains("\"bad\""), "StorageStatus names the record set aside: \(store.status)")
        #expect(store.status.contains("status"), "and the reason: \(store.status)")
        #expect(try w.copies(of: "state.json").count == 1, "the damaged file is copied aside")
    }

    @Test func copiesAsideNeverOverwriteEachOther() throws {
        let w = try World()
        try w.damageOneActivity()
        let first = try Data(contentsOf: w.stateFile)
        _ = StateStore(paths: w.paths).load(now: 5_000)
        try Data("{ not json".utf8).write(to: w.stateFile)
        _ = StateStore(paths: w.paths).load(now: 5_000)
        let copies = try w.copies(of: "state.json")
        #expect(copies.count == 2, "two corruptions, two copies: \(copies)")
        let contents = try copies.map { try Data(contentsOf: w.directory.appendingPathComponent($0)) }
        #expect(contents.contains(first), "the first copy is kept as it was")
    }

    /// Issue 18, point 8: a journal whose header cannot be read cannot say which state.json it
    /// continues, so none of its records is applied; it is copied aside and named in StorageStatus.
    @Test func aJournalWithABadHeaderIsSetAsideWhole() throws {
        let w = try World()
        _ = try w.registry.update(id: "good", state: ["body": .string("journaled")], now: 1_001)
        let record = try #require(w.registry.activity("good")?.jsonRecord())
        var journal = Data("garbage header\n".utf8)
        journal.append(contentsOf: record)
        journal.append(UInt8(ascii: "\n"))
        try journal.write(to: w.journal)
        let store = StateStore(paths: w.paths)
        let loaded = try #require(store.load(now: 5_000))
        let good = loaded.registry.activities.first { $0.id.rawValue == "good" }
        #expect(good?.state["body"] == nil, "the record after the bad header is not applied")
        #expect(good?.state["title"] == .string("good"), "state.json is restored as it was")
        #expect(store.status.contains("journal record(s) skipped"), "\(store.status)")
        #expect(try w.copies(of: "state.journal").count == 1, "the journal is copied aside")
    }

    @Test func badRecordsAreSkippedOneByOneWithPreciseReasons() throws {
        let w = try World()
        let header = try #require(String(contentsOf: w.journal, encoding: .utf8).split(separator: "\n").first)
        _ = try w.registry.update(id: "good", state: ["body": .string("after the bad ones")], now: 1_002)
        let record = try #require(w.registry.activity("good")?.jsonRecord())
        var journal = Data((header + "\n").utf8)
        journal.append(contentsOf: [0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a])          // invalid UTF-8
        journal.append(Data("{\"id\":\"x\",\"kind\":7}\n".utf8))                          // wrong type
        journal.append(contentsOf: record)
        journal.append(UInt8(ascii: "\n"))
        journal.append(Data("{\"id\":\"good\",\"sta".utf8))                               // torn last write
        try journal.write(to: w.journal)

        let replay = JournalReplay.read(path: w.journal.path, generation: 1)
        #expect(replay.records.count == 1)
        #expect(replay.skipped.count == 3)
        #expect(replay.skipped[0].contains("line 2: invalid UTF-8 at byte 2"), "\(replay.skipped[0])")
        #expect(!replay.skipped[0].contains("cut short"))
        #expect(replay.skipped[1].contains("line 3") && replay.skipped[1].contains("kind"), "\(replay.skipped[1])")
        #expect(replay.skipped[2].contains("line 5: cut short"), "\(replay.skipped[2])")

        let store = StateStore(paths: w.paths)
        let loaded = try #require(store.load(now: 5_000))
        #expect(loaded.registry.activities.first { $0.id.rawValue == "good" }?.state["body"] == .string("after the bad ones"))
        #expect(loaded.registry.activities.count == 2)
        #expect(store.status.contains("3 journal record(s) skipped"), "\(store.status)")
        #expect(try w.copies(of: "state.journal").count == 1)
    }
}
