import DBus
import Foundation
import Testing
import TestSupport

/// A scheduled update that no longer fits when it comes due is dropped (the model's rule,
/// `ScheduleTests`); the daemon says so in its log, naming the activity and the error, so a
/// user can learn why it did not happen. The due moment is real here (1 s ahead): the log line
/// is the event waited for.
@Suite("scheduled updates dropped when due are logged", .timeLimit(.minutes(5)))
struct ScheduledDropLogTests {
    @Test func anUpdateThatNoLongerFitsIsLoggedWithItsErrorAndActivity() throws {
        let f = try DaemonFixture(recorderName: nil, config: "max-payload-bytes = 400\n")
        let id = try f.client.start("generic", state: ["title": .string("t")])
        let due = Int64(Date().timeIntervalSince1970) + 2
        try f.client.update(id, ["body": .string(String(repeating: "b", count: 200))], options: ["at": .int64(due)])
        // The state grows after the update was accepted: when due, title and body are past the limit.
        try f.client.update(id, ["title": .string(String(repeating: "t", count: 200))])
        #expect(waitUntil(timeout: 10) { f.daemon.log().contains("was dropped when due") }, "\(f.daemon.log())")
        let line = f.daemon.log().split(separator: "\n").first { $0.contains("was dropped when due") } ?? ""
        #expect(line.contains("warning: activity \(id): the update scheduled at \(due) was dropped when due: PayloadTooLarge"),
                "\(line)")
        #expect(try f.client.get(id)["state"]?.vardict?["body"] == nil, "not applied")
    }
}
