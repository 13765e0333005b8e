import Foundation
@testable import Idle
import Testing

/// `away.json` is read back at start-up and its times feed arithmetic and `Int` conversions
/// (the "Welcome back" minutes): an entry with a time no clock gives is forgotten on load, a
/// sound one beside it is kept.
@Suite(.timeLimit(.minutes(2))) struct AwayLedgerLoadTests {
    @Test func entriesWithTimesOutsideTheLimitsAreForgottenOnLoad() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("away-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = """
        {"sound": {"pending": {"idleSince": 1000, "pausedAt": 1180}, "discardedSeconds": 60},
         "huge": {"pending": {"idleSince": -1e308, "pausedAt": 1180}, "discardedSeconds": 0},
         "future": {"pending": {"idleSince": 1000, "pausedAt": 1e300}, "discardedSeconds": 0},
         "negative": {"discardedSeconds": -5},
         "endless": {"discardedSeconds": 1e308}}
        """
        try json.write(to: directory.appendingPathComponent("away.json"), atomically: true, encoding: .utf8)
        let ledger = AwayLedger(stateDirectory: directory.path)
        #expect(ledger.entries.keys.sorted() == ["sound"])
        #expect(ledger["sound"]?.pending?.idleSince == 1000)
        #expect(ledger["sound"]?.discardedSeconds == 60)
    }
}
