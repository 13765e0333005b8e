import ActivityModel
/// A hint value with the D-Bus type it is sent as (servers are strict: mako refuses a uint32 `value`).
public enum HintValue: Sendable, Equatable, Hashable {
    case int32(Int32)
    case byte(UInt8)
    case boolean(Bool)
    case string(String)

    /// The D-Bus type signature of the value ("i", "y", "b", "s").
    public var dbusSignature: String {
        switch self {
        case .int32: "i"
        case .byte: "y"
        case .boolean: "b"
        case .string: "s"
        }
    }
}

/// The notification urgency levels of the spec (the `urgency` hint, a byte).
public enum Urgency: UInt8, Sendable, Equatable {
    case low = 0
    case normal = 1
    case critical = 2
}

/// Exactly what one `Notify` call sends for a card (except `replaces_id`, which the presenter
/// tracks): built by a pure function so every rendering rule is testable without a server.
public struct NotificationRequest: Sendable, Equatable {
    public var appName: String
    /// `app_icon`: the card's icon name, or "".
    public var iconName: String
    public var summary: String
    public var body: String
    /// Actions in order; sent as the flat list key, label, key, label…
    public var actions: [CardButton]
    public var hints: [String: HintValue]
    /// `expire_timeout` in ms; 0 = never expires.
    public var expireTimeout: Int32
    public var urgency: Urgency

    /// Builds the request for `card` on a server with `profile`; `alert` nil means a routine update.
    /// `firstShow`: the card is new on the server. On a server whose routine updates go out at
    /// urgency low (GNOME Shell), a new card still comes at normal urgency, so its banner
    /// shows once; only a quiet card (another view pops up for it) stays low from the start.
    /// `sourceSlot`: on a server that keeps few notifications per source (GNOME 43–47 keep 3 per
    /// app name and pid, and destroy the oldest), each live card has its own slot number, and the
    /// app name carries that many zero-width spaces: the server then files each card under a
    /// source of its own, while every card still shows the same app name.
    public static func make(card: Card, profile: ServerProfile, alert: CardAlert?,
                            firstShow: Bool = false, sourceSlot: Int = 0) -> NotificationRequest {
        let routineLow = card.quiet || (profile.routineUrgencyLow && !firstShow)
        let urgency: Urgency = alert?.breaksThrough == true ? .critical : (alert == nil && routineLow) ? .low : .normal
        var hints: [String: HintValue] = [
            "resident": .boolean(true),
            "urgency": .byte(urgency.rawValue),
        ]
        var body = CardText.body(card.body, markup: profile.bodyMarkup)
        let segmented = card.segments.flatMap { $0.isDrawnApart ? $0 : nil }
        if profile.sendsValueHint {
            if let progress = card.progress ?? segmented?.position {
                hints["value"] = .int32(CardText.percentValue(progress))
            }
            if let summary = segmented?.summary, !summary.isEmpty {
                body = CardText.appendLine(CardText.body(summary, markup: profile.bodyMarkup), to: body)
            }
        } else if let segmented {
            let percent = card.progress.map { " \(ShownPercent.of($0))%" } ?? ""
            body = CardText.appendLine(SegmentBarText.bar(segmented) + percent, to: body)
        } else if let progress = card.progress {
            body = CardText.appendLine(CardText.progressBar(progress), to: body)
        }
        if let alert {
            if let sound = alert.soundName, !sound.isEmpty { hints["sound-name"] = .string(sound) }
        } else {
            hints["suppress-sound"] = .boolean(true)
        }
        if let category = card.category, !category.isEmpty { hints["category"] = .string(category) }
        if let entry = card.desktopEntry, !entry.isEmpty { hints["desktop-entry"] = .string(entry) }
        let appName = card.appName + String(repeating: "\u{200B}", count: max(0, sourceSlot))
        return NotificationRequest(appName: appName, iconName: card.iconName ?? "", summary: card.title,
                                   body: body, actions: card.buttons, hints: hints, expireTimeout: 0,
                                   urgency: urgency)
    }

    /// The same card without its sound (`suppress-sound` instead of `sound-name`): the first of
    /// the pair sent on servers whose urgency applies one Notify late
    /// (`ServerProfile.urgencyAppliesLate`). GNOME Shell plays a notification's sound each time
    /// it shows or re-shows its banner (`_updateShowingNotification`), and the low-urgency
    /// follow-up re-shows the banner that the first one opened; so only the follow-up carries
    /// the sound, and the alert plays it once, whether its banner shows at once or waits.
    public func silenced() -> NotificationRequest {
        var request = self
        request.hints["sound-name"] = nil
        request.hints["suppress-sound"] = .boolean(true)
        return request
    }

    /// The same card at urgency low, sound hint kept: sent right after a normal-urgency one on
    /// servers whose urgency applies one Notify late (`ServerProfile.urgencyAppliesLate`), so the
    /// next routine update is judged low. It is the one of the pair that carries the sound
    /// (see `silenced`): it re-shows the banner still showing, or updates the one still waiting.
    public func settled() -> NotificationRequest {
        var request = self
        request.urgency = .low
        request.hints["urgency"] = .byte(Urgency.low.rawValue)
        return request
    }

    /// The flat `as` actions argument of Notify: key, label, key, label…
    public var flatActions: [String] {
        actions.flatMap { [$0.key, $0.label] }
    }

    /// What KDE Plasma compares to call two notifications identical: app name, summary and body.
    /// Hints are left out on purpose, so a change of hints alone (e.g. an alert's urgency) with
    /// the same text is still held back rather than refused.
    public var identityKey: String {
        [appName, summary, body].joined(separator: "\u{1F}")
    }
}
