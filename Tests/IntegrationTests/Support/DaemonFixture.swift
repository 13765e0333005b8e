import DBus
import Foundation
import TestSupport

/// One private world per test: a bus, a recording notification server, the real daemon,
/// and a client. Nothing is shared with other tests or with the user's session.
/// Teardown runs in dependency order (`deinit`): the daemon stops before the servers it talks
/// to, so no card is due at a recorder that is being freed.
final class DaemonFixture {
    let bus: PrivateBus
    let recorder: RecordingNotificationServer?
    let daemon: DaemonProcess
    let client: TestClient

    /// - Parameters:
    ///   - config: the daemon's `liveactivityd.conf`, written before it starts.
    ///   - beforeDaemon: runs on the bus before the daemon starts (e.g. another server).
    init(recorderName: String? = "dunst", recorderVersion: String = "1.0",
         capabilities: [String] = ["actions", "body", "body-markup", "persistence"],
         environment: [String: String] = [:], config: String? = nil, recordSignals: Bool = true,
         beforeDaemon: (PrivateBus) throws -> Void = { _ in }) throws {
        let bus = try PrivateBus()
        self.bus = bus
        recorder = try recorderName.map { try RecordingNotificationServer(bus: bus, name: $0, version: recorderVersion,
                                                                                 capabilities: capabilities) }
        var env = environment
        if recorderName == nil && env["LIVEACTIVITIES_NO_CARDS"] == nil { env["LIVEACTIVITIES_NO_CARDS"] = "1" }
        try beforeDaemon(bus)
        daemon = try DaemonProcess(bus: bus, environment: env, start: false)
        if let config { try daemon.writeConfig(config) }
        try daemon.start()
        client = try TestClient(bus: bus, recordSignals: recordSignals)
    }

    /// The Notify calls the daemon made for notification `id` (by assigned id).
    func notifies(forNotification id: UInt32) -> [RecordingNotificationServer.NotifyCall] {
        recorder?.calls.filter { $0.assignedID == id } ?? []
    }

    /// Waits until the recorder has seen at least `count` Notify calls.
    @discardableResult
    func waitForNotifies(_ count: Int, timeout: Double = 5) -> Bool {
        waitUntil(timeout: timeout) { (recorder?.calls.count ?? 0) >= count }
    }

    /// The barrier of the daemon's card pipeline: starts a new activity (least relevant, so the
    /// compact view does not change) and waits for its card. The daemon hands cards to its
    /// presenter in order and a new card waits for no other, so once it arrives every card
    /// change asked for before has been handled: sent, dropped, or waiting for its card's
    /// once-a-second slot (so open that slot first when that matters).
    /// Returns its notification id (nil when it did not come).
    @discardableResult
    func cardBarrier(timeout: Double = 5) throws -> UInt32? {
        barriers += 1
        let title = "barrier \(barriers)"
        _ = try client.start("generic", state: ["title": .string(title)], options: ["relevance": .double(-1)])
        guard waitUntil(timeout: timeout, { recorder?.calls.contains { $0.summary == title } == true }) else { return nil }
        return recorder?.calls.first { $0.summary == title }?.assignedID
    }

    private var barriers = 0

    deinit {
        daemon.stop()
        recorder?.stop()
    }

    /// Runs the CLI binary with this fixture's environment.
    func cli(_ arguments: [String]) throws -> CommandResult {
        try runCommand(BuiltProducts.path(of: "liveactivity"), arguments, environment: daemon.environment, timeout: 20)
    }
}
