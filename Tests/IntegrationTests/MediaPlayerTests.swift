import DBus
import Foundation
import Testing
import TestSupport

/// Issue 26, part 2: the most relevant live timer as an MPRIS player
/// (`org.mpris.MediaPlayer2.liveactivities`) on a private bus, read and driven as Plasma's
/// lock screen, its media applet and `playerctl` do.
@Suite("MPRIS media player", .timeLimit(.minutes(5)))
struct MediaPlayerTests {
    static let name = "org.mpris.MediaPlayer2.liveactivities"
    static let path = "/org/mpris/MediaPlayer2"
    static let player = "org.mpris.MediaPlayer2.Player"
    static let root = "org.mpris.MediaPlayer2"

    /// A bus, the daemon (no cards; a config and extra kinds when given) and a client.
    struct World {
        let bus: PrivateBus
        let daemon: DaemonProcess
        let client: TestClient

        init(config: String? = nil, kinds: [String: String] = [:]) throws {
            bus = try PrivateBus()
            daemon = try DaemonProcess(bus: bus, environment: ["LIVEACTIVITIES_NO_CARDS": "1"], start: false)
            if let config { try daemon.writeConfig(config) }
            if !kinds.isEmpty {
                let directory = daemon.configDirectory.appendingPathComponent("kinds")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for (name, text) in kinds {
                    try text.write(to: directory.appendingPathComponent("\(name).json"), atomically: true, encoding: .utf8)
                }
            }
            try daemon.start()
            client = try TestClient(bus: bus)
        }

        /// A property of the player, read over the bus.
        func property(_ property: String, interface: String = MediaPlayerTests.player) throws -> DBusValue {
            try client.connection.callMethod(destination: MediaPlayerTests.name, path: MediaPlayerTests.path,
                                             interface: "org.freedesktop.DBus.Properties", member: "Get",
                                             arguments: [.string(interface), .string(property)],
                                             timeoutMilliseconds: 5_000).first?.unwrapped ?? .string("")
        }

        func all(_ interface: String = MediaPlayerTests.player) throws -> [String: DBusValue] {
            try client.connection.callMethod(destination: MediaPlayerTests.name, path: MediaPlayerTests.path,
                                             interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                                             arguments: [.string(interface)], timeoutMilliseconds: 5_000)
                .first?.vardict ?? [:]
        }

        func metadata() throws -> [String: DBusValue] { try property("Metadata").vardict ?? [:] }

        /// A method of the player.
        @discardableResult
        func call(_ member: String, _ arguments: [DBusValue] = []) throws -> [DBusValue] {
            try client.connection.callMethod(destination: MediaPlayerTests.name, path: MediaPlayerTests.path,
                                             interface: MediaPlayerTests.player, member: member, arguments: arguments,
                                             timeoutMilliseconds: 5_000)
        }

        func status(_ id: String) throws -> String { try client.get(id)["status"]?.string ?? "" }

        /// The daemon's unique name (its signals and replies come from it).
        func daemonUniqueName() throws -> String {
            try client.connection.callMethod(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                             interface: "org.freedesktop.DBus", member: "GetNameOwner",
                                             arguments: [.string(DaemonProcess.busName)]).first?.string ?? ""
        }

        /// The PropertiesChanged of the player's Player interface received so far.
        func playerChanges() -> [[String: DBusValue]] {
            client.signals.compactMap { message -> [String: DBusValue]? in
                guard message.member == "PropertiesChanged", message.path == MediaPlayerTests.path,
                      let arguments = try? message.arguments(), arguments.first?.string == MediaPlayerTests.player
                else { return nil }
                return arguments[1].vardict
            }
        }

        func playerctl(_ arguments: [String]) throws -> CommandResult {
            try runCommand("/usr/bin/playerctl", ["--player=liveactivities"] + arguments, environment: daemon.environment,
                           timeout: 20)
        }
    }

    private static func artist(_ metadata: [String: DBusValue]) -> [String] {
        guard case .array(_, let names)? = metadata["xesam:artist"]?.unwrapped else { return [] }
        return names.compactMap(\.string)
    }

    private static func focus(_ client: TestClient, id: String = "focus", relevance: Double? = nil) throws -> String {
        var options: [String: DBusValue] = ["id": .string(id)]
        if let relevance { options["relevance"] = .double(relevance) }
        return try client.start("focus", attributes: ["session-type": .string("Pomodoro")],
                                state: ["task": .string("Write report")], options: options)
    }

    @Test func aFocusSessionIsThePlayersTrack() throws {
        let w = try World()
        #expect(!w.bus.hasOwner(Self.name), "no timer, no player")
        let id = try Self.focus(w.client)
        #expect(w.bus.waitForOwner(Self.name, timeout: 5))
        let metadata = try w.metadata()
        #expect(metadata["mpris:trackid"]?.unwrapped == .objectPath("/io/github/liveactivities/LiveActivities1/activity/\(id)"))
        #expect(metadata["xesam:title"]?.string == "Pomodoro · Write report")
        let artist = Self.artist(metadata)
        #expect(artist.count == 1)
        #expect(artist.first?.range(of: #"^2[45]m left · ends at \d\d:\d\d$"#, options: .regularExpression) != nil,
                "by the minute: \(artist)")
        #expect(metadata["mpris:length"]?.unwrapped == .int64(25 * 60 * 1_000_000))
        let player = try w.all()
        #expect(player["PlaybackStatus"]?.string == "Playing")
        #expect(player["Rate"]?.double == 1 && player["MinimumRate"]?.double == 1 && player["MaximumRate"]?.double == 1)
        #expect(player["CanPlay"]?.bool == true && player["CanPause"]?.bool == true && player["CanControl"]?.bool == true)
        #expect(player["CanGoNext"]?.bool == false && player["CanGoPrevious"]?.bool == false && player["CanSeek"]?.bool == false)
        let position = try #require(try w.property("Position").integer)
        #expect(position >= 0 && position < 30_000_000, "elapsed, in µs: \(position)")
        let root = try w.all(Self.root)
        #expect(root["Identity"]?.string == "Live Activities")
        #expect(root["DesktopEntry"]?.string == "io.github.liveactivities")
        #expect(root["CanQuit"]?.bool == false && root["CanRaise"]?.bool == false && root["HasTrackList"]?.bool == false)
        #expect(root["SupportedUriSchemes"]?.unwrapped == .array(elementSignature: "s", []))
        #expect(root["SupportedMimeTypes"]?.unwrapped == .array(elementSignature: "s", []))
        // The position runs with the clock, read on demand.
        #expect(waitUntil(timeout: 5) { ((try? w.property("Position").integer) ?? 0) >= position + 1_000_000 })
    }

    @Test func pauseAndPlayPauseAndResumeTheActivity() throws {
        let w = try World()
        let id = try Self.focus(w.client)
        #expect(w.bus.waitForOwner(Self.name, timeout: 5))
        try w.call("Pause")
        #expect(try w.status(id) == "paused")
        #expect(w.client.waitFor { w.playerChanges().contains { $0["PlaybackStatus"]?.string == "Paused" } })
        #expect(try w.property("PlaybackStatus").string == "Paused")
        let paused = try w.metadata()
        #expect(Self.artist(paused).first?.hasPrefix("Paused") == true, "\(paused)")
        let frozen = try w.property("Position").integer
        try w.call("Pause")
        #expect(try w.status(id) == "paused", "Pause on a paused timer changes nothing")
        try w.call("Play")
        #expect(try w.status(id) == "active")
        #expect(w.client.waitFor { w.playerChanges().contains { $0["PlaybackStatus"]?.string == "Playing" } })
        #expect(try (w.property("Position").integer ?? 0) >= (frozen ?? 0))
        try w.call("Play")
        #expect(try w.status(id) == "active", "Play on a running timer changes nothing")
        try w.call("PlayPause")
        #expect(try w.status(id) == "paused")
        try w.call("PlayPause")
        #expect(try w.status(id) == "active")
        // Each pause and resume was a press of the activity's own button.
        #expect(w.client.waitFor { w.client.received("ActionInvoked").count == 4 })
        #expect(w.client.received("ActionInvoked").map { $0.last?.string ?? "" } == ["pause", "resume", "pause", "resume"])
    }

    /// The artist line is by the minute and Position is never announced: while the activity's
    /// own CompactTrailing ticks every second, the player sends no PropertiesChanged at all and
    /// no Seeked (a fresh 25-minute session reads "25m left" for its whole first minute).
    @Test func nothingIsAnnouncedEverySecond() throws {
        let w = try World()
        let id = try Self.focus(w.client)
        #expect(w.bus.waitForOwner(Self.name, timeout: 5))
        w.client.sync(with: try w.daemonUniqueName())
        w.client.forgetSignals()
        let activityPath = "/io/github/liveactivities/LiveActivities1/activity/\(id)"
        // Three ticks of the activity: more than two seconds went by.
        #expect(w.client.waitFor(timeout: 10) {
            w.client.propertiesChanged(on: activityPath).filter { $0["CompactTrailing"] != nil }.count >= 3
        })
        w.client.sync(with: try w.daemonUniqueName())
        let changes = w.playerChanges()
        #expect(changes.isEmpty, "\(changes)")
        #expect(w.client.received("Seeked").isEmpty)
    }

    @Test func extendIsAJumpAndSaysSo() throws {
        let w = try World()
        let id = try Self.focus(w.client)
        #expect(w.bus.waitForOwner(Self.name, timeout: 5))
        try w.client.call("Extend", [.string(id), .int64(300)])
        #expect(w.client.waitFor { !w.client.received("Seeked").isEmpty })
        let seeked = try #require(w.client.received("Seeked").first?.first?.integer)
        #expect(seeked >= 0 && seeked < 30_000_000, "the position at the jump: \(seeked)")
        #expect(w.client.waitFor { w.playerChanges().contains { $0["Metadata"] != nil } })
        #expect(try w.metadata()["mpris:length"]?.unwrapped == .int64(30 * 60 * 1_000_000))
        #expect(w.client.received("Seeked").count == 1)
    }

    @Test func theMostRelevantTimerIsShownAndEndingItLeavesTheNext() throws {
        let w = try World()
        _ = try w.client.start("generic", state: ["title": .string("Backup"), "progress": .double(0.4)],
                               options: ["relevance": .double(1)])
        w.client.sync(with: try w.daemonUniqueName())
        #expect(!w.bus.hasOwner(Self.name), "an activity without a timer is no track")
        let focus = try Self.focus(w.client, relevance: 0.2)
        let fast = try w.client.start("fasting", attributes: ["protocol": .string("16:8")], options: ["relevance": .double(0.8)])
        #expect(w.bus.waitForOwner(Self.name, timeout: 5))
        #expect(w.client.waitFor { (try? w.metadata()["xesam:title"]?.string) == "Fasting · 16:8" })
        #expect(try w.metadata()["mpris:length"]?.unwrapped == .int64(16 * 3600 * 1_000_000))
        #expect(!(Self.artist(try w.metadata()).first ?? "").isEmpty)
        try w.client.end(fast)
        #expect(w.client.waitFor { (try? w.metadata()["xesam:title"]?.string) == "Pomodoro · Write report" })
        try w.client.end(focus)
        #expect(w.bus.waitForNoOwner(Self.name, timeout: 5), "nothing to show: the name is given up")
    }

    @Test func offInTheConfigOrTheKindMeansNoPlayer() throws {
        let quiet = try World(config: "mpris = off\n")
        _ = try Self.focus(quiet.client)
        quiet.client.sync(with: try quiet.daemonUniqueName())
        #expect(!quiet.bus.hasOwner(Self.name))

        let kind = #"""
        {"name": "secret-timer", "display-name": "Secret", "mpris": false,
         "attributes": {"minutes": {"type": "integer", "default": 10}},
         "timer": {"duration": {"minutes": "minutes"}, "counts": "down"},
         "templates": {"title": "Secret", "body": "{remaining|timer} left"}}
        """#
        let w = try World(kinds: ["secret-timer": kind])
        let secret = try w.client.start("secret-timer")
        w.client.sync(with: try w.daemonUniqueName())
        #expect(!w.bus.hasOwner(Self.name), "the kind says \"mpris\": false")
        _ = try Self.focus(w.client, relevance: 0.1)
        #expect(w.bus.waitForOwner(Self.name, timeout: 5))
        #expect(try w.metadata()["xesam:title"]?.string == "Pomodoro · Write report", "the secret timer is skipped, though more relevant")
        _ = secret
    }

    @Test func privateLockScreenShowsTheKindAndTheTimeOnly() throws {
        let w = try World(config: "lock-screen = private\n")
        _ = try Self.focus(w.client)
        #expect(w.bus.waitForOwner(Self.name, timeout: 5))
        let metadata = try w.metadata()
        #expect(metadata["xesam:title"]?.string == "Focus")
        #expect(Self.artist(metadata).first?.range(of: #"^2[45]m$"#, options: .regularExpression) != nil, "\(Self.artist(metadata))")
    }

    @Test func badInputChangesNothing() throws {
        let w = try World()
        let id = try Self.focus(w.client)
        #expect(w.bus.waitForOwner(Self.name, timeout: 5))
        let before = try w.metadata()
        try w.call("Seek", [.int64(60_000_000)])
        try w.call("SetPosition", [.objectPath("/io/github/liveactivities/LiveActivities1/activity/\(id)"), .int64(0)])
        try w.call("Next")
        try w.call("Previous")
        try w.call("Stop")
        #expect(w.client.error { try w.call("OpenUri", [.string("file:///etc/passwd")]) }?.name
                == "org.freedesktop.DBus.Error.NotSupported")
        #expect(w.client.error { try w.call("Pause", [.string("extra")]) }?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(w.client.error {
            _ = try w.client.connection.callMethod(destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Properties",
                                                   member: "Set", arguments: [.string(Self.player), .string("Rate"), .variant(.double(2))])
        } != nil)
        #expect(try w.status(id) == "active")
        #expect(try w.property("Rate").double == 1)
        let after = try w.metadata()
        #expect(after["mpris:length"] == before["mpris:length"] && after["xesam:title"] == before["xesam:title"])
        let position = try #require(try w.property("Position").integer)
        #expect(position < 30_000_000, "Seek did not move the timer: \(position)")
        #expect(w.client.received("Seeked").isEmpty)
    }

    @Test func playerctlReadsAndDrivesIt() throws {
        let w = try World()
        let id = try Self.focus(w.client)
        #expect(w.bus.waitForOwner(Self.name, timeout: 5))
        let title = try w.playerctl(["metadata", "xesam:title"])
        #expect(title.status == 0 && title.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "Pomodoro · Write report",
                "\(title)")
        let all = try w.playerctl(["metadata"])
        #expect(all.stdout.contains("xesam:artist") && all.stdout.contains("left · ends at"), "\(all)")
        #expect(try w.playerctl(["status"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "Playing")
        #expect(try w.playerctl(["pause"]).status == 0)
        #expect(try w.status(id) == "paused")
        #expect(try w.playerctl(["status"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "Paused")
        #expect(try w.playerctl(["play-pause"]).status == 0)
        #expect(try w.status(id) == "active")
        let list = try runCommand("/usr/bin/playerctl", ["--list-all"], environment: w.daemon.environment, timeout: 20)
        #expect(list.stdout.split(separator: "\n").contains("liveactivities"), "\(list)")
    }

    /// A music player that plays keeps the media keys: ours gives up its name while another
    /// player reports Playing (Plasma's multiplexer and GNOME's media keys keep a playing
    /// player they chose), stays aside a while after it paused (so the key that paused the
    /// music resumes it), and comes back when that player leaves.
    @Test func aPlayingMusicPlayerKeepsTheKeys() throws {
        let w = try World()
        _ = try Self.focus(w.client)
        #expect(w.bus.waitForOwner(Self.name, timeout: 5))
        // A player that only sits there paused (a browser tab) changes nothing.
        let browserClient = try TestClient(bus: w.bus, recordSignals: false)
        let browser = try FakeMusicPlayer(connection: browserClient.connection, status: "Paused", name: "browser")
        try browser.takeName()
        #expect(browserClient.waitFor { browser.statusReads > 0 })
        w.client.sync(with: try w.daemonUniqueName())
        #expect(w.bus.hasOwner(Self.name), "a paused player beside ours: ours stays")
        let music = try FakeMusicPlayer(connection: w.client.connection, status: "Playing")
        try music.takeName()
        #expect(w.client.waitFor { !w.bus.hasOwner(Self.name) }, "ours steps aside while the music plays")
        music.set(status: "Paused")
        w.client.sync(with: try w.daemonUniqueName())
        #expect(!w.bus.hasOwner(Self.name), "the music paused a moment ago: the Play key is still its own")
        try music.leave()
        #expect(w.client.waitFor { w.bus.hasOwner(Self.name) }, "the music player left: ours is back (the paused browser aside)")
        #expect(try w.property("PlaybackStatus").string == "Playing")

        // Music that plays before the timer starts keeps the keys from the start.
        let second = try World()
        let early = try FakeMusicPlayer(connection: second.client.connection, status: "Playing")
        try early.takeName()
        _ = try Self.focus(second.client)
        // The daemon may take the name for the moment its read of the music's status is on the
        // way (harmless: a multiplexer keeps a playing player it chose); once it has the answer
        // (the Ping after it orders after it), it has stepped aside.
        #expect(second.client.waitFor { early.statusReads > 0 })
        second.client.sync(with: try second.daemonUniqueName())
        #expect(!second.bus.hasOwner(Self.name))
        early.set(status: "Stopped")
        try early.leave()
        #expect(second.client.waitFor { second.bus.hasOwner(Self.name) })
    }
}

/// A music player as far as the multiplexers look: `org.mpris.MediaPlayer2.<name>` with a
/// `PlaybackStatus` it announces with PropertiesChanged, served on a test client's connection
/// (so it answers while that client waits).
final class FakeMusicPlayer {
    let name: String
    private let connection: DBusConnection
    private let server: DBusObjectServer
    private var status: String
    /// How often someone read `PlaybackStatus`.
    private(set) var statusReads = 0

    init(connection: DBusConnection, status: String, name: String = "music") throws {
        self.name = "org.mpris.MediaPlayer2." + name
        self.connection = connection
        self.status = status
        server = DBusObjectServer(connection: connection)
        try server.export(MediaPlayerTests.path, [
            DBusInterface(name: MediaPlayerTests.player, properties: [
                DBusProperty("PlaybackStatus", "s", get: { [unowned self] in
                    self.statusReads += 1
                    return .string(self.status)
                }),
            ]),
        ])
    }

    func takeName() throws { _ = try connection.requestName(name) }

    func leave() throws { try connection.releaseName(name) }

    func set(status: String) {
        self.status = status
        server.emitPropertiesChanged(path: MediaPlayerTests.path, interface: MediaPlayerTests.player,
                                     values: ["PlaybackStatus": .string(status)])
    }
}
