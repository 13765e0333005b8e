import DBus
import Foundation
import Testing
import TestSupport

/// The daemon over damaged state (issue 14, fault 5): the readable activities come back, and
/// the user can see on the bus (`StorageStatus`) and in the log that something was set aside.
@Suite("Damaged state", .timeLimit(.minutes(5)))
struct DamagedStateTests {
    @Test func aWrongTypedActivityIsSetAsideAndTheOthersLoad() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        _ = try c.start("generic", state: ["title": .string("fine")], options: ["id": .string("fine")])
        _ = try c.start("generic", state: ["title": .string("broken")], options: ["id": .string("broken")])
        #expect(try c.property("StorageStatus") == .string("ok"))
        f.daemon.kill()
        try f.daemon.start()  // compacts: both are in state.json now
        #expect(try c.list().count == 2, "restored (the first call is answered only once the state is read)")
        f.daemon.kill()
        var text = try String(contentsOf: f.daemon.stateFile, encoding: .utf8)
        let record = try #require(text.range(of: "\"id\":\"broken\""))
        let relevance = try #require(text.range(of: "\"relevance\":0", range: record.upperBound..<text.endIndex))
        text.replaceSubrange(relevance, with: "\"relevance\":\"high\"")
        try text.write(to: f.daemon.stateFile, atomically: true, encoding: .utf8)

        try f.daemon.start()
        #expect(try c.list().map { $0[0] } == ["fine"])
        let status = try c.property("StorageStatus").string ?? ""
        #expect(status.contains("\"broken\"") && status.contains("relevance"), "StorageStatus: \(status)")
        #expect(f.daemon.log().contains("activity \"broken\" set aside"), "\(f.daemon.log())")
        let copies = try FileManager.default.contentsOfDirectory(atPath: f.daemon.stateDirectory.path)
            .filter { $0.hasPrefix("state.json.corrupt-") }
        #expect(copies.count == 1)
    }
}
