import ActivityModel
import DBus

/// The `ScheduledUpdates` property (Get key `scheduled-updates`), `a(xa{sv}a{sv})`: each
/// scheduled update as its time, its state and its Update options, earliest first, so a
/// client can list what will change and when, and cancel one by its time.
enum ScheduledUpdatesProperty {
    static let signature = "a(xa{sv}a{sv})"

    static func value(of activity: Activity) -> DBusValue {
        .array(elementSignature: "(xa{sv}a{sv})", activity.timeline.map { update in
            .structure([.int64(Int64(saturating: update.at.rounded(.down))), ValueConversion.vardict(update.state),
                        .vardict(options(update.options))])
        })
    }

    /// The options as Update's option keys, only those given.
    private static func options(_ options: UpdateOptions) -> [String: DBusValue] {
        var result: [String: DBusValue] = [:]
        if let staleAt = options.staleAt { result["stale-at"] = .int64(Int64(saturating: staleAt.rounded(.down))) }
        if let relevance = options.relevance { result["relevance"] = .double(relevance) }
        if let title = options.alertTitle { result["alert-title"] = .string(title) }
        if let body = options.alertBody { result["alert-body"] = .string(body) }
        if let sound = options.alertSound { result["alert-sound"] = .string(sound) }
        if options.replaceState { result["replace-state"] = .boolean(true) }
        return result
    }
}
