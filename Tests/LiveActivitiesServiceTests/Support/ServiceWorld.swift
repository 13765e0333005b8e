import ActivityModel
import DBus
import Foundation
import Notifications
import TestSupport
@testable import LiveActivitiesService

/// `ActivityService` in this process: on a private bus (its object server is real, so replies,
/// errors and signals are what a client gets), on a thread of its own as in the daemon, with a
/// `ManualClock` and a `RecordingCardSink`. The test thread calls it over the bus like any
/// client and moves time with `advance`; `sync` is the barrier that proves every publishing
/// round of what was called has run and its signals have reached the client.
final class ServiceWorld {
    static let t0 = 1_700_000_040.0  // 2023-11-14 22:14:00 UTC, on the minute

    let bus: PrivateBus
    let home: TemporaryDirectory
    let clock: ManualClock
    let sink: RecordingCardSink?
    let paths: DaemonPaths
    private let thread: ServerThread
    private let serviceBox = ServiceBox()
    let client: TestClient

    /// `serverInfo`: what the recording sink says the notification server is (nil: its default).
    /// `setUp`: runs on the service's thread before its objects are exported (attach parts).
    init(at start: Double = ServiceWorld.t0, cards: Bool = true, limits: Limits = Limits(),
         profile: ServerProfile = .fallback, home existingHome: TemporaryDirectory? = nil,
         serverInfo: ServerInfo? = nil,
         setUp: (@Sendable (ActivityService, DBusConnection, DaemonPaths) -> Void)? = nil,
         cardInterval: Double = 0, publishInterval: Double = 0) throws {
        bus = try PrivateBus()
        home = try existingHome ?? TemporaryDirectory(prefix: "service-world")
        clock = ManualClock(now: start)
        let sink = cards ? (serverInfo.map { RecordingCardSink(serverInfo: $0, profile: profile) }
                            ?? RecordingCardSink(profile: profile)) : nil
        self.sink = sink
        paths = DaemonPaths(stateDirectory: home.subdirectory("state").path, configDirectory: home.subdirectory("config").path,
                            kindDirectories: [ServiceTestKinds.directory])
        let paths = paths, clock = clock, box = serviceBox
        thread = try ServerThread(address: bus.address) { connection, objects, loop in
            let service = ActivityService(loop: loop, server: objects, paths: paths, presenter: sink, limits: limits,
                                          clock: clock, cardInterval: cardInterval, publishInterval: publishInterval)
            setUp?(service, connection, paths)
            try service.exportObjects()
            _ = try connection.requestName(BusNames.busName, flags: [.doNotQueue])
            box.service = service
        }
        client = try TestClient(bus: bus)
    }

    /// Runs `work` on the service's thread with the service, and waits for it.
    func onService<T: Sendable>(_ work: @escaping @Sendable (ActivityService) -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox<T>()
        let box = serviceBox
        thread.post {
            result.value = box.service.map(work)
            done.signal()
        }
        done.wait()
        guard let value = result.value else { fatalError("the service did not start") }
        return value
    }

    /// Moves the clock by `seconds`; every wake-up due on the way runs, at its moment.
    func advance(by seconds: Double) {
        advance(to: clock.now + seconds)
    }

    /// Moves the clock to `time` (never back); every wake-up due on the way runs, at its moment.
    func advance(to time: Double) {
        sync()
        let clock = clock
        onService { _ in clock.advance(to: time) }
        sync()
    }

    /// The barrier: everything posted on the service's thread so far has run (publishing
    /// rounds included), and the signals it emitted have reached the client.
    func sync() {
        onService { _ in () }
        onService { _ in () }  // rounds posted by the rounds just run
        client.sync(with: thread.uniqueName)
    }

    deinit {
        // Drops the box's reference on the service's thread. The service itself is never freed:
        // ManagerInterface's handlers capture it, and it holds the object server that holds them
        // (a cycle the daemon never breaks, as its service lives until exit). Its thread stops.
        let box = serviceBox
        thread.post { box.service = nil }
        thread.stop()
        bus.stop()
    }
}

/// The service, handed from its thread to the test's; only touched on the service's thread.
final class ServiceBox: @unchecked Sendable {
    var service: ActivityService?
}

/// A value carried back from the service's thread.
final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
