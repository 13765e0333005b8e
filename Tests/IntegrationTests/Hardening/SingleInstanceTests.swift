import DBus
import Foundation
import Testing
import TestSupport

/// One daemon per state directory (issue 14, fault 1): a second `liveactivityd`, started by
/// hand beside the activated one or in a second session sharing `$XDG_STATE_HOME`, must exit
/// non-zero with a clear message and leave every file of the first one as it was, so nothing
/// the first one acknowledged is lost at its next crash.
@Suite("One daemon per state directory", .timeLimit(.minutes(5)))
struct SingleInstanceTests {
    /// Every file of the state directory and its bytes.
    static func files(_ directory: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            result[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return result
    }

    /// A running daemon with one activity and 24 acknowledged updates.
    static func busyDaemon() throws -> DaemonFixture {
        let f = try DaemonFixture(recorderName: nil)
        _ = try f.client.start("generic", state: ["title": .string("first")], options: ["id": .string("mine")])
        for n in 1...24 { try f.client.update("mine", ["body": .string("update \(n)")]) }
        return f
    }

    /// After a SIGKILL and a restart, every acknowledged update of the first daemon is there.
    static func expectNothingLost(_ f: DaemonFixture) throws {
        f.daemon.kill()
        try f.daemon.start()
        #expect(try f.client.get("mine")["body"]?.string == "update 24")
    }

    @Test func aSecondDaemonOnTheSameBusTouchesNothing() throws {
        let f = try Self.busyDaemon()
        let before = try Self.files(f.daemon.stateDirectory)
        let second = try runCommand(BuiltProducts.path(of: "liveactivityd"), [], environment: f.daemon.environment, timeout: 20)
        #expect(second.status != 0)
        #expect(second.stderr.contains("already uses this state directory"), "clear message: \(second.stderr)")
        #expect(try Self.files(f.daemon.stateDirectory) == before, "the second daemon wrote nothing")
        #expect(try f.client.get("mine")["body"]?.string == "update 24", "the first one still serves")
        try Self.expectNothingLost(f)
    }

    @Test func aSecondDaemonOnAnotherBusSharingTheStateTouchesNothing() throws {
        let f = try Self.busyDaemon()
        let before = try Self.files(f.daemon.stateDirectory)
        let otherBus = try PrivateBus()
        var environment = f.daemon.environment
        for (key, value) in otherBus.environment() { environment[key] = value }
        let second = try runCommand(BuiltProducts.path(of: "liveactivityd"), [], environment: environment, timeout: 20)
        #expect(second.status != 0)
        #expect(second.stderr.contains("already uses this state directory"), "clear message: \(second.stderr)")
        #expect(!otherBus.hasOwner(DaemonProcess.busName), "the second session gets no daemon serving the first one's activities")
        #expect(try Self.files(f.daemon.stateDirectory) == before, "the second daemon wrote nothing")
        try Self.expectNothingLost(f)
    }

    @Test func aDaemonThatLosesTheNameRaceReadsAndWritesNoState() throws {
        // Another process holds the name on this bus but has another state directory: the
        // daemon gets the lock of its own directory, fails to get the name, and leaves its
        // (existing) state alone.
        let f = try Self.busyDaemon()
        let stranger = try DaemonProcess(bus: f.bus, start: false)
        let strangerState = stranger.stateDirectory
        try FileManager.default.createDirectory(at: strangerState, withIntermediateDirectories: true)
        try Data("{\"not\":\"read\"}".utf8).write(to: strangerState.appendingPathComponent("state.json"))
        let second = try runCommand(BuiltProducts.path(of: "liveactivityd"), [], environment: stranger.environment, timeout: 20)
        #expect(second.status != 0)
        #expect(second.stderr.contains("already owned"), "\(second.stderr)")
        let left = try Self.files(strangerState)
        #expect(Set(left.keys) == ["state.json", "lock"], "no journal, no copy aside, no temp file: \(left.keys.sorted())")
        #expect(left["state.json"] == Data("{\"not\":\"read\"}".utf8))
    }
}
