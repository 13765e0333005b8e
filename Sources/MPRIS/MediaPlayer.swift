import DBus
import ServiceSupport

/// The most relevant live timer as an MPRIS player, `org.mpris.MediaPlayer2.liveactivities`
/// at `/org/mpris/MediaPlayer2` on the daemon's own connection: Plasma's lock screen shows
/// the current player (never notifications), and so do its media applet, GNOME 49+'s lock
/// screen, waybar and KDE Connect. The name is owned only while there is a timer to show, so
/// players lists never show an empty player, and is given up while another player plays
/// (`OtherPlayers`), so music keeps the media keys. Announces `Metadata` and `PlaybackStatus`
/// with PropertiesChanged when they change (the artist line changes by the minute), never
/// `Position`; sends `Seeked` on a jump only. Lives on the event loop's thread.
package final class MediaPlayer {
    static let busName = "org.mpris.MediaPlayer2.liveactivities"
    static let path = "/org/mpris/MediaPlayer2"
    /// How long after another player stopped playing ours stays aside, so that the Play key
    /// that paused the music also resumes it (the multiplexers prefer a player that plays).
    static let stepAsideGrace = 60.0
    /// How long after the name was refused it is asked for again (not at every round).
    static let retryAfterRefusal = 60.0

    private let connection: DBusConnection
    private let server: DBusObjectServer
    private let clock: ServiceClock
    private let others: OtherPlayers
    /// Runs a pause or resume (`"pause"`, `"resume"`) on the activity, as its card's button does.
    private let act: (_ id: String, _ action: String) throws(DBusError) -> Void
    /// The activity's timer as it is now (the state may be a round behind): `Position` and the
    /// methods read it on demand.
    private let timer: (_ id: String) -> (running: Bool, position: Double)?

    /// What the player shows (or would show, while it steps aside).
    private(set) var state: MediaPlayerState?
    /// Whether the name is ours, and what was last announced under it.
    private var announced: Announced?
    private var graceWake: WakeupToken?
    /// The name was refused (another program owns it): not asked again before this moment
    /// (monotonic seconds), and said once in the log.
    private var refusedUntil = -Double.infinity
    private var refusalLogged = false

    /// What clients were last told under the name: the track, and the timeline a client
    /// extrapolates (`Position` at a moment, advancing at `Rate` 1 while playing).
    private struct Announced {
        var track: MediaPlayerTrack
        var positionSeconds: Double
        var monotonicAt: Double
    }

    package init(connection: DBusConnection, server: DBusObjectServer, clock: ServiceClock,
         act: @escaping (String, String) throws(DBusError) -> Void,
         timer: @escaping (String) -> (running: Bool, position: Double)?) {
        self.connection = connection
        self.server = server
        self.clock = clock
        self.act = act
        self.timer = timer
        others = OtherPlayers(connection: connection, ownName: Self.busName, monotonicNow: { clock.monotonicNow })
    }

    /// The track shown now, nil when there is none.
    var track: MediaPlayerTrack? { state?.track }

    /// Exports the object and starts following the other players; the name comes with the first timer.
    package func start() throws(DBusError) {
        try server.export(Self.path, [MediaPlayerRootInterface.make(), MediaPlayerPlayerInterface.make(self)])
        others.onChange = { [weak self] in self?.othersChanged() }
        try others.start()
    }

    /// Shows `new` (nil: nothing to show): takes or gives up the name, announces what changed.
    package func update(_ new: MediaPlayerState?) {
        state = new
        guard let new, !stepsAside else {
            releaseName()
            return
        }
        guard var current = announced else {
            takeName(showing: new)
            return
        }
        let now = clock.monotonicNow
        let old = current.track
        if new.track.activityID == old.activityID, isJump(from: current, to: new, at: now) {
            emit("Seeked", [.int64(MediaPlayerTrack.microseconds(new.positionSeconds))])
        }
        current.positionSeconds = new.positionSeconds
        current.monotonicAt = now
        current.track = new.track
        announced = current
        var changed: [String: DBusValue] = [:]
        if !new.track.hasSameMetadata(as: old) { changed["Metadata"] = new.track.metadata }
        if new.track.playbackStatus != old.playbackStatus { changed["PlaybackStatus"] = .string(new.track.playbackStatus) }
        if !changed.isEmpty {
            server.emitPropertiesChanged(path: Self.path, interface: MediaPlayerPlayerInterface.name, values: changed)
        }
    }

    /// Whether the position moved in a way a client following `Rate` 1.0 while playing cannot
    /// know: the length changed (Extend), the timer resumed (its wall-clock mapping moved), or
    /// it stands more than a second from where it should (a clock step, a new start).
    private func isJump(from old: Announced, to new: MediaPlayerState, at now: Double) -> Bool {
        if new.track.lengthSeconds != old.track.lengthSeconds { return true }
        if new.track.isRunning && !old.track.isRunning { return true }
        // Running into a pause: the position stops where it was; PlaybackStatus says so.
        guard new.track.isRunning else { return false }
        let expected = old.positionSeconds + (now - old.monotonicAt)
        return abs(new.positionSeconds - expected) > 1
    }

    /// `Position` in microseconds: the shown timer's position now.
    func positionMicroseconds() -> Int64 {
        guard let id = state?.track.activityID, let now = timer(id) else { return 0 }
        return MediaPlayerTrack.microseconds(now.position)
    }

    /// `PlaybackStatus`: whether the shown timer runs at this moment, read on demand like
    /// `Position`, so a Get right after a Pause's reply says Paused even when the round that
    /// announces it is paced a few milliseconds later; "Stopped" with nothing shown.
    func playbackStatus() -> String {
        guard let track = state?.track else { return "Stopped" }
        guard let (_, running) = shownTimer() else { return track.playbackStatus }
        return running ? "Playing" : "Paused"
    }

    // MARK: Methods

    /// `Play`: resumes a paused timer; a running one goes on.
    func play() throws(DBusError) {
        guard let (id, running) = shownTimer(), !running else { return }
        try act(id, "resume")
    }

    /// `Pause`: pauses a running timer; a paused one stays.
    func pause() throws(DBusError) {
        guard let (id, running) = shownTimer(), running else { return }
        try act(id, "pause")
    }

    /// `PlayPause`: pauses a running timer, resumes a paused one.
    func playPause() throws(DBusError) {
        guard let (id, running) = shownTimer() else { return }
        try act(id, running ? "pause" : "resume")
    }

    /// The shown activity and whether its timer runs at this moment.
    private func shownTimer() -> (id: String, running: Bool)? {
        guard let id = state?.track.activityID, let now = timer(id) else { return nil }
        return (id, now.running)
    }

    // MARK: The name and the other players

    /// Whether ours stays off the bus for another player: one plays, or stopped playing within
    /// `stepAsideGrace` and is still there.
    private var stepsAside: Bool {
        others.anyPlaying || others.stoppedPlaying(within: Self.stepAsideGrace)
    }

    private func othersChanged() {
        if let graceWake { clock.cancel(graceWake) }
        graceWake = nil
        if !others.anyPlaying, let stopped = others.lastStopped, others.stoppedPlaying(within: Self.stepAsideGrace) {
            // A moment past the grace's end, so that it has surely ended when the wake-up comes.
            let remaining = stopped.at + Self.stepAsideGrace - clock.monotonicNow + 0.1
            graceWake = clock.wake(afterSeconds: remaining) { [weak self] in
                guard let self else { return }
                self.graceWake = nil
                self.update(self.state)
            }
        }
        update(state)
    }

    private func takeName(showing state: MediaPlayerState) {
        guard clock.monotonicNow >= refusedUntil else { return }
        do {
            let reply = try connection.requestName(Self.busName, flags: [.doNotQueue])
            guard reply == .primaryOwner || reply == .alreadyOwner else {
                if !refusalLogged { Log.warning("\(Self.busName) is owned by another program; no media player while it is") }
                refusalLogged = true
                refusedUntil = clock.monotonicNow + Self.retryAfterRefusal
                return
            }
            announced = Announced(track: state.track, positionSeconds: state.positionSeconds, monotonicAt: clock.monotonicNow)
        } catch {
            Log.error("cannot take \(Self.busName): \(error.message)")
        }
    }

    private func releaseName() {
        guard announced != nil else { return }
        announced = nil
        do {
            try connection.releaseName(Self.busName)
        } catch {
            Log.error("cannot give up \(Self.busName): \(error.message)")
        }
    }

    private func emit(_ signal: String, _ arguments: [DBusValue]) {
        do {
            try server.emit(path: Self.path, interface: MediaPlayerPlayerInterface.name, signal: signal, arguments)
        } catch {
            Log.error("cannot emit \(signal): \(error.message)")
        }
    }
}
