import DBus
import Foundation
@testable import MPRIS
import Testing
import TestSupport
@testable import LiveActivitiesService

/// The MPRIS player against a clock the test moves (issue 26): the artist line changes once a
/// minute and no more, a wall-clock step that moves a timer's position is a `Seeked` while one
/// that moves its start along is not, and the minute ours stays aside after music paused ends
/// by itself. The service runs in-process on a private bus (`ServiceWorld`).
@Suite(.timeLimit(.minutes(5))) struct MediaPlayerClockTests {
    static let name = "org.mpris.MediaPlayer2.liveactivities"
    static let path = "/org/mpris/MediaPlayer2"
    static let player = "org.mpris.MediaPlayer2.Player"

    private func world() throws -> ServiceWorld {
        try ServiceWorld(cards: false) { service, connection, _ in
            service.publisher.attachMediaPlayer(MediaPlayer.start(for: service, connection: connection))
        }
    }

    private func metadata(_ world: ServiceWorld) throws -> [String: DBusValue] {
        try world.client.connection.callMethod(destination: Self.name, path: Self.path,
                                               interface: "org.freedesktop.DBus.Properties", member: "Get",
                                               arguments: [.string(Self.player), .string("Metadata")])
            .first?.unwrapped.vardict ?? [:]
    }

    private func artist(_ world: ServiceWorld) throws -> String {
        guard case .array(_, let names)? = try metadata(world)["xesam:artist"]?.unwrapped else { return "" }
        return names.first?.string ?? ""
    }

    private func metadataChanges(_ world: ServiceWorld) -> Int {
        world.client.propertiesChanged(on: Self.path).filter { $0["Metadata"] != nil }.count
    }

    @Test func theArtistLineChangesOnceAMinute() throws {
        let world = try world()
        _ = try world.client.start("focus", attributes: ["session-type": .string("Pomodoro")])
        world.sync()
        let first = try artist(world)
        #expect(first.hasPrefix("25m left · ends at "), "\(first)")
        world.client.forgetSignals()
        // Five minutes, second by second: each tick re-reads the player, five minutes turn.
        for _ in 0..<300 { world.advance(by: 1) }
        #expect(metadataChanges(world) == 5, "\(world.client.propertiesChanged(on: Self.path))")
        let last = try artist(world)
        #expect(last.hasPrefix("20m left · ends at "), "\(last)")
        #expect(world.client.received("Seeked").isEmpty)
    }

    /// A Pause and a Resume right after a tick, on a clock that stands still here: a round that
    /// comes within 50 ms of the last settle settles paced (not before the clock moves), and a
    /// Get of PlaybackStatus meanwhile still says what the timer does now (without it the Get
    /// after the Resume said Paused; playerctl's `pause` then `status` in the integration test
    /// once read "Playing" on a loaded machine).
    @Test func playbackStatusIsTheTimersEvenBeforeThePacedRoundSettles() throws {
        let world = try world()
        let id = try world.client.start("focus", attributes: ["session-type": .string("Pomodoro")])
        world.advance(by: 1)
        world.sync()
        #expect(try playbackStatus(world) == "Playing")
        try world.client.call("Pause", [.string(id)])
        world.sync()
        #expect(try playbackStatus(world) == "Paused")
        try world.client.call("Resume", [.string(id)])
        world.sync()
        #expect(try playbackStatus(world) == "Playing")
    }

    private func playbackStatus(_ world: ServiceWorld) throws -> String? {
        try world.client.connection.callMethod(destination: Self.name, path: Self.path,
                                               interface: "org.freedesktop.DBus.Properties", member: "Get",
                                               arguments: [.string(Self.player), .string("PlaybackStatus")])
            .first?.unwrapped.string
    }

    @Test func aClockStepIsASeekOnlyWhereThePositionJumps() throws {
        let world = try world()
        let start = Int64(ServiceWorld.t0)
        // A timer whose start was given (it stays where it is on the wall clock) …
        _ = try world.client.start("generic", attributes: ["timer-start": .int64(start - 600), "timer-end": .int64(start + 600)],
                                   state: ["title": .string("Given")], options: ["relevance": .double(1)])
        world.sync()
        world.client.forgetSignals()
        let clock = world.clock
        world.onService { _ in clock.step(by: 300) }
        world.onService { $0.wallClockStepped() }
        world.sync()
        let seeked = world.client.received("Seeked").compactMap { $0.first?.integer }
        #expect(seeked == [900_000_000], "the position jumped from 600 s to 900 s: \(seeked)")

        // … and a focus session started "now" (its start moves with the clock): no jump.
        let second = try self.world()
        _ = try second.client.start("focus", attributes: ["session-type": .string("Pomodoro")])
        second.advance(by: 10)
        second.client.forgetSignals()
        let secondClock = second.clock
        second.onService { _ in secondClock.step(by: -300) }
        second.onService { $0.wallClockStepped() }
        second.advance(by: 2)
        #expect(second.client.received("Seeked").isEmpty, "\(second.client.received("Seeked"))")
    }

    @Test func theMinuteAsideAfterMusicPausedEndsByItself() throws {
        let world = try world()
        _ = try world.client.start("focus", attributes: ["session-type": .string("Pomodoro")])
        world.sync()
        #expect(world.bus.hasOwner(Self.name))
        let music = try MusicStandIn(connection: world.client.connection)
        world.advance(by: 0.1)  // the daemon reads the music's status: the client answers while it syncs
        #expect(world.client.waitFor { !world.bus.hasOwner(Self.name) })
        music.pause()
        world.sync()
        world.advance(by: 59)
        #expect(!world.bus.hasOwner(Self.name), "59 s after the music paused: still aside")
        world.advance(by: 2)
        #expect(world.bus.hasOwner(Self.name), "61 s after: back, with the music still there and paused")
        withExtendedLifetime(music) {}
    }
}

/// A playing music player on the test client's connection: `org.mpris.MediaPlayer2.music`
/// with the one property the daemon reads, `PlaybackStatus`, announced when it changes.
private final class MusicStandIn {
    private let server: DBusObjectServer
    private var status = "Playing"

    init(connection: DBusConnection) throws {
        server = DBusObjectServer(connection: connection)
        try server.export(MediaPlayerClockTests.path, [
            DBusInterface(name: MediaPlayerClockTests.player, properties: [
                DBusProperty("PlaybackStatus", "s", get: { [unowned self] in .string(self.status) }),
            ]),
        ])
        _ = try connection.requestName("org.mpris.MediaPlayer2.music")
    }

    func pause() {
        status = "Paused"
        server.emitPropertiesChanged(path: MediaPlayerClockTests.path, interface: MediaPlayerClockTests.player,
                                     values: ["PlaybackStatus": .string(status)])
    }
}
