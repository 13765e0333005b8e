import ActivityModel
import DBus
import LiveActivitiesContract

/// What the MPRIS player shows of one live activity, as a whole value: the parts that are
/// announced with PropertiesChanged (`Metadata`, `PlaybackStatus`) and nothing that moves by
/// itself. The position is not part of it (MPRIS clients compute it from `Position` and
/// `Rate`), so two rounds a second apart compare equal and announce nothing; the artist line
/// is rendered by the minute for the same reason (DESIGN.md, "The lock screen").
package struct MediaPlayerTrack: Equatable, Sendable {
    /// The activity shown.
    let activityID: String
    /// `xesam:title`: the card's title (the kind's name under `lock-screen = private`).
    let title: String
    /// `xesam:artist`: the body line by the minute (the time alone under `private`).
    let artist: String
    /// `mpris:length`: the timer's whole length with its extensions; nil for a timer that only counts up.
    let lengthSeconds: Double?
    /// Whether the timer runs (`Playing`) or is paused (`Paused`).
    let isRunning: Bool

    package init(activityID: String, title: String, artist: String, lengthSeconds: Double?, isRunning: Bool) {
        self.activityID = activityID
        self.title = title
        self.artist = artist
        self.lengthSeconds = lengthSeconds
        self.isRunning = isRunning
    }

    /// `mpris:trackid`: the activity's own object path, unique per activity.
    var trackID: String { BusNames.activityPath(activityID) }

    /// `PlaybackStatus`.
    var playbackStatus: String { isRunning ? "Playing" : "Paused" }

    /// `mpris:length` in microseconds, as MPRIS wants it.
    var lengthMicroseconds: Int64? { lengthSeconds.map(Self.microseconds) }

    /// Whether `Metadata` reads the same for both: compared field by field, so a round that
    /// changed nothing builds no dictionary (`PlaybackStatus` is compared on its own).
    func hasSameMetadata(as other: MediaPlayerTrack) -> Bool {
        activityID == other.activityID && title == other.title && artist == other.artist
            && lengthMicroseconds == other.lengthMicroseconds
    }

    /// `Metadata` (`a{sv}`).
    var metadata: DBusValue {
        var values: [String: DBusValue] = [
            "mpris:trackid": .objectPath(trackID),
            "xesam:title": .string(title),
            "xesam:artist": .array(elementSignature: "s", [.string(artist)]),
        ]
        if let lengthMicroseconds { values["mpris:length"] = .int64(lengthMicroseconds) }
        return .vardict(values)
    }

    /// Seconds as MPRIS's microseconds (`x`), saturating, never negative.
    static func microseconds(_ seconds: Double) -> Int64 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int64(saturating: (seconds * 1_000_000).rounded(.down))
    }
}

/// The player's whole state at one moment: the track, or none (no live activity with a timer
/// that may be shown), and the timer's position then, which `Position` reads and a jump of
/// which sends `Seeked`.
package struct MediaPlayerState: Equatable, Sendable {
    let track: MediaPlayerTrack
    /// Seconds of the timer run at the moment the state was read (0 before its start).
    let positionSeconds: Double

    package init(track: MediaPlayerTrack, positionSeconds: Double) {
        self.track = track
        self.positionSeconds = positionSeconds
    }
}
