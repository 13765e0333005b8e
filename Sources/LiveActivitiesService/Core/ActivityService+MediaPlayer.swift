import ActivityModel
import DBus
import MPRIS

/// Which activity the MPRIS player shows and how, from the same reads as the compact view.
extension RoundView {
    /// The player's state: the most relevant live activity that has a timer, whose kind
    /// offers a media player (`"mpris"`, default true) and whose lock-screen setting is not
    /// `off` (Plasma shows the player on its lock screen); nil when there is none.
    var mediaPlayerState: MediaPlayerState? {
        guard let shown = live.first(where: offersMediaPlayer), let timer = shown.activity.timer else { return nil }
        // By the minute: the card's texts as a server without seconds gets them, so the
        // metadata changes at most once a minute however the kind's body counts.
        let minutes = card(of: shown, style: RenderStyle(showSeconds: false)).rendered
        let title: String
        let artist: String
        if shown.lockScreen == .private {
            title = shown.kindName
            artist = Self.oneLine(minutes.compactTrailing)
        } else {
            title = minutes.title
            artist = Self.oneLine(minutes.body)
        }
        let track = MediaPlayerTrack(activityID: shown.activity.id.rawValue, title: title, artist: artist,
                                     lengthSeconds: timer.duration, isRunning: timer.isRunning)
        return MediaPlayerState(track: track, positionSeconds: timer.mediaPosition(at: now))
    }

    private func offersMediaPlayer(_ snapshot: ActivitySnapshot) -> Bool {
        guard snapshot.activity.timer != nil, snapshot.lockScreen != .off else { return false }
        return catalog.kind(named: snapshot.activity.kind)?.offersMediaPlayer ?? true
    }

    /// A body of several lines as one line (Plasma's greeter shows one line of artist).
    private static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(0x0A) else { return text }  // one line already, as a timer's body mostly is
        return text.split(separator: "\n").map(String.init).joined(separator: " · ")
    }
}

extension TimerState {
    /// The position at `now` as the player's `Position`: never before 0 nor past its length.
    func mediaPosition(at now: Double) -> Double {
        let position = max(0, position(at: now))
        return duration.map { min(position, $0) } ?? position
    }
}

extension MediaPlayer {
    /// Starts the player for `service` (which then keeps it up to date); a failure is logged
    /// and the daemon goes on without one.
    static func start(for service: ActivityService, connection: DBusConnection) -> MediaPlayer? {
        let environment = service.environment
        let player = MediaPlayer(connection: connection, server: environment.server, clock: environment.clock,
                                 act: { [weak service] id, action throws(DBusError) in
                                     try service?.invokeAction(id: id, action: action)
                                 },
                                 timer: { [weak service] id in
                                     guard let service, let timer = service.registry.activity(id)?.timer else { return nil }
                                     return (timer.isRunning, timer.mediaPosition(at: service.environment.clock.now))
                                 })
        do throws(DBusError) {
            try player.start()
            player.update(service.readView().mediaPlayerState)
            return player
        } catch {
            Log.error("no media player: \(error.message)")
            return nil
        }
    }
}
