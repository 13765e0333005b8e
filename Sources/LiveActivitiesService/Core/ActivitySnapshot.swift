import ActivityFiles
import ActivityModel

/// What an activity looks like from outside at the moment it was taken: the model's record and
/// its rendered text. One call may take several snapshots, each at its own `now`. Every
/// property of the Activity interface and every key of `Get` is read from one, through the
/// one table of `Bus/ActivityProperties.swift`; the card, the tray, the job and the media
/// player are composed from one. Core's read model: the bus only translates it.
struct ActivitySnapshot: Sendable {
    let activity: Activity
    let rendered: RenderedActivity
    /// The announced push token ("" without one); never part of the card or the compact view.
    var pushToken = ""
    /// What the lock screen may show of it: `full`, `private` or `off` (the daemon's
    /// `lock-screen` setting, and `off` where its kind says `"lock-screen": false`).
    var lockScreen = LockScreenPrivacy.full
    /// Its kind's display name ("Focus"): what a `private` lock screen shows instead of the title.
    var kindName = ""
}
