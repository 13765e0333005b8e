import ActivityFiles
import ActivityModel
import Foundation
@testable import Persistence
import Testing
import TestSupport

/// The state file and its journal of updates: what a restart reads back, including after a
/// crash at the worst moment of a full save and after an append cut short.
@Suite(.timeLimit(.minutes(5))) struct StateStoreTests {
    /// A store in a fresh directory and a registry with one generic activity.
    final class World {
        let ground: StateDirectory
        var registry: ActivityRegistry
        var directory: URL { ground.directory }
        var paths: DaemonPaths { ground.paths }

        init() throws {
            ground = try StateDirectory(prefix: "statestore")
            registry = ActivityRegistry(catalog: KindCatalog.load(directories: ground.paths.kindDirectories), idSeed: 1)
            _ = try registry.start(kind: "generic", attributes: [:], state: ["title": .string("t")],
                                   options: StartOptions(id: "a"), now: 1_000)
        }

        var state: PersistedState { PersistedState(registry: registry.snapshot) }
        var journal: URL { ground.journal }

        func update(_ body: String, now: Double) throws -> Activity {
            _ = try registry.update(id: "a", state: ["body": .string(body)], now: now)
            return try #require(registry.activity("a"))
        }

        func loadedBody(_ store: StateStore) -> String? {
            guard case .string(let body)? = store.load()?.registry.activities.first?.state["body"] else { return nil }
            return body
        }

        /// A full save of the current state; whether it was written.
        func save(_ store: StateStore) -> Bool { (try? store.saveAll(state)) != nil }

        /// One journal record of `activity` (appended, or a full save when the journal is due); whether it was written.
        func record(_ store: StateStore, _ activity: Activity) -> Bool {
            (try? store.record([.activity(activity)], durable: false) { self.state }) != nil
        }
    }

    @Test func journaledUpdatesAreReadBackOverTheStateFile() throws {
        let w = try World()
        let store = StateStore(paths: w.paths)
        #expect(w.save(store))
        #expect(w.record(store, try w.update("one", now: 1_001)))
        #expect(w.record(store, try w.update("two", now: 1_002)))
        let text = try String(contentsOf: URL(fileURLWithPath: w.paths.stateFile), encoding: .utf8)
        #expect(!text.contains("two"), "an update does not rewrite state.json")
        #expect(w.loadedBody(StateStore(paths: w.paths)) == "two")
    }

    @Test func aJournalOfAnEarlierGenerationIsIgnored() throws {
        let w = try World()
        let store = StateStore(paths: w.paths)
        #expect(w.save(store))
        #expect(w.record(store, try w.update("journaled", now: 1_001)))
        let staleJournal = try Data(contentsOf: w.journal)
        _ = try w.update("saved in full", now: 1_002)
        #expect(w.save(store))
        // A crash right after state.json was replaced, before the journal was emptied.
        try staleJournal.write(to: w.journal)
        #expect(w.loadedBody(StateStore(paths: w.paths)) == "saved in full")
    }

    @Test func aTornLastRecordIsIgnored() throws {
        let w = try World()
        let store = StateStore(paths: w.paths)
        #expect(w.save(store))
        #expect(w.record(store, try w.update("complete", now: 1_001)))
        let handle = try FileHandle(forWritingTo: w.journal)
        handle.seekToEndOfFile()
        handle.write(Data("{\"id\":\"a\",\"sta".utf8))
        try handle.close()
        #expect(w.loadedBody(StateStore(paths: w.paths)) == "complete")
    }

    @Test func aFullJournalIsFoldedIntoTheStateFile() throws {
        let w = try World()
        let store = StateStore(paths: w.paths)
        #expect(w.save(store))
        for n in 0..<StateJournal.compactAfterRecords {
            #expect(w.record(store, try w.update("n\(n)", now: 1_001 + Double(n))))
        }
        #expect(w.record(store, try w.update("after", now: 9_999)), "a full journal is compacted, not refused")
        let text = try String(contentsOf: URL(fileURLWithPath: w.paths.stateFile), encoding: .utf8)
        #expect(text.contains("after"), "the record that found the journal full went into state.json")
        let journalSize = try FileManager.default.attributesOfItem(atPath: w.journal.path)[.size] as? Int ?? -1
        #expect(journalSize < 100, "the journal starts over after compaction")
        #expect(w.loadedBody(StateStore(paths: w.paths)) == "after")
    }
}
