import ActivityModel
/// A card's buttons are the model's `CardButton` (its `key` comes back through
/// `CardPresenter.onAction`): one type, seen by every file of this target and its users.
@_exported import struct ActivityModel.CardButton

/// What one card (the Lock Screen analogue) should show, in plain text.
///
/// The daemon renders an activity into a `Card`; the presenter turns it into a
/// notification for whatever server runs (escaping or stripping markup, choosing the
/// progress representation), so the daemon never needs to know the server.
public struct Card: Sendable, Equatable {
    /// Shown as the notification's application name (e.g. "Fasting").
    public var appName: String
    /// The summary line; never interpreted as markup.
    public var title: String
    /// The body, plain text (escaped for servers with body markup).
    public var body: String
    /// A freedesktop icon name or a file path.
    public var iconName: String?
    /// Progress from 0 to 1, or nil for none.
    public var progress: Double?
    /// Buttons, sent as notification actions.
    public var buttons: [CardButton]
    /// The `category` hint, e.g. "x-liveactivities".
    public var category: String?
    /// The `desktop-entry` hint (without ".desktop").
    public var desktopEntry: String?
    /// Routine updates go out at urgency low whatever the server, so they never pop up: set
    /// while another view shows the activity (a KDE job), which must not pop up twice.
    public var quiet: Bool
    /// The progress in segments (phases, steps), or nil: servers that draw the `value` hint
    /// keep their bar and get the segments' summary line; others get a text bar with boundaries.
    public var segments: SegmentedProgress?

    public init(appName: String, title: String, body: String = "", iconName: String? = nil,
                progress: Double? = nil, buttons: [CardButton] = [], category: String? = nil,
                desktopEntry: String? = nil, quiet: Bool = false, segments: SegmentedProgress? = nil) {
        self.appName = appName
        self.title = title
        self.body = body
        self.iconName = iconName
        self.progress = progress
        self.buttons = buttons
        self.category = category
        self.desktopEntry = desktopEntry
        self.quiet = quiet
        self.segments = segments
    }
}

/// Why a card is (re)shown as an alert: it may pop up again and sound.
/// Routine updates carry no `CardAlert` and must stay silent and in place.
public struct CardAlert: Sendable, Equatable {
    /// A freedesktop sound name (e.g. "complete"), sent as `sound-name`.
    public var soundName: String?
    /// Sent at critical urgency, which GNOME Shell and Plasma show even in Do Not Disturb: set
    /// while the daemon has quieted the desktop, so its own alert still reaches the user.
    public var breaksThrough: Bool

    public init(soundName: String? = nil, breaksThrough: Bool = false) {
        self.soundName = soundName
        self.breaksThrough = breaksThrough
    }
}
