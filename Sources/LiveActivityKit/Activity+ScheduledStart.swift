import DBus
import Foundation

/// The presentation style of iOS 26's `request(…style:…)`. The daemon has one style: both
/// show a card and a place in the compact view (`transient` is not dismissed early).
public enum ActivityStyle: Sendable, Hashable {
    case standard, transient
}

/// iOS 26's scheduled start: `request(…, start:)` with a future date gives a `pending`
/// activity (daemon option `start-at`) that becomes `active` by itself at that date, with an alert.
extension Activity {
    /// Requests an activity that starts at `start` (iOS 26); nil or a past date starts it now.
    ///
    /// - Throws: as `request(attributes:content:pushType:)`, plus `.invalidContent` for a
    ///   start more than 366 days ahead.
    public static func request(attributes: Attributes, content: ActivityContent<ContentState>,
                               pushType: PushType? = nil, start: Date?) throws -> Activity<Attributes> {
        try request(attributes: attributes, content: content, pushType: pushType, start: start, link: DaemonLink.current())
    }

    /// iOS 26's full shape. `style` changes nothing on Linux (see `ActivityStyle`). The card
    /// pops up with the daemon's own start alert at `start`; `alertConfiguration`, when given,
    /// replaces it with an update carrying that alert, scheduled for the same moment.
    public static func request(attributes: Attributes, content: ActivityContent<ContentState>,
                               pushType: PushType? = nil, style: ActivityStyle,
                               alertConfiguration: AlertConfiguration? = nil, start: Date? = nil) throws -> Activity<Attributes> {
        let link = try DaemonLink.current()
        let activity = try request(attributes: attributes, content: content, pushType: pushType, start: start, link: link)
        if let alert = alertConfiguration, let startAt = ScheduledStart.startAt(start) {
            var options = ScheduledStart.alertOptions(alert)
            options["at"] = .int64(startAt)
            _ = try link.call("Update", [.string(activity.id), .vardict([:]), .vardict(options)])
        }
        return activity
    }
}

/// The daemon's Start option for a scheduled start, in whole unix seconds (rounded up, so a
/// start a fraction of a second ahead is still ahead).
enum ScheduledStart {
    static func startAt(_ start: Date?) -> Int64? {
        guard let start, isPending(start) else { return nil }
        return Int64(min(max(1, start.timeIntervalSince1970.rounded(.up)), 9e18))
    }

    static func options(_ start: Date?) -> [String: DBusValue] {
        startAt(start).map { ["start-at": .int64($0)] } ?? [:]
    }

    static func isPending(_ start: Date?) -> Bool {
        guard let start else { return false }
        return start.timeIntervalSinceNow > 0
    }

    static func alertOptions(_ alert: AlertConfiguration) -> [String: DBusValue] {
        ["alert-title": .string(alert.title), "alert-body": .string(alert.body),
         "alert-sound": .string(alert.sound.name ?? "message-new-instant")]
    }
}
