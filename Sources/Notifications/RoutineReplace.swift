import CNotify
import Glibc

/// What a routine replace waits to hear: which card it was for, and the id it asked to replace.
final class RoutineReplaceTarget {
    weak let engine: NotificationEngine?
    let activityID: String
    let notification: LibnotifyNotification
    let replacedID: Int32
    /// Sent from the daemon's thread through `RoutineLane`: a plain answer goes back to the lane,
    /// and the card thread is not woken for it.
    let viaLane: Bool

    init(engine: NotificationEngine, activityID: String, notification: LibnotifyNotification, replacedID: Int32,
         viaLane: Bool) {
        self.engine = engine
        self.activityID = activityID
        self.notification = notification
        self.replacedID = replacedID
        self.viaLane = viaLane
    }
}

/// A routine update of a card the server already shows, sent without blocking: the same
/// `Notify` libnotify's `notify_notification_show` sends (same connection, so the server files
/// it under the same sender, and the same arguments and `sender-pid` hint), but sent with
/// `g_dbus_connection_send_message` instead of libnotify's synchronous call. That
/// call makes a private main context (an eventfd) per card and blocks the card thread until
/// the server answers; a card replaced every second paid for it every second. The answer is
/// read on GDBus's worker thread (`RoutineReplyFilter`) and handed to the card thread: the
/// card's next call waits for it, as it waited for the end of the blocking call.
/// libnotify stays in charge of everything else: first shows, alerts, closes, ids and the
/// card's signals.
enum RoutineReplace {
    /// Sends `request` as a replace of `notification` (shown, so its server id is known) on
    /// `connection`, libnotify's session connection; `replies` picks the server's answer off
    /// the connection and tells `engine` only what needs it (a new id, a failure).
    /// `server`: the unique name of the server that shows the card (libnotify's proxy sends to
    /// the name's owner too, so a server that took the name meanwhile never gets a replace of
    /// an id it never gave). False when the call could not be built (nothing was sent, so no
    /// answer will come: the caller shows the card through libnotify instead).
    /// `serverID`: the id the server gave the card (read by the caller on the card thread).
    /// `viaLane`: sent from the daemon's thread (`RoutineLane`), not the card thread.
    static func send(_ request: NotificationRequest, replacing notification: LibnotifyNotification, serverID: Int32,
                     of activityID: String, to server: String, engine: NotificationEngine, on connection: OpaquePointer,
                     replies: RoutineReplyFilter, viaLane: Bool = false) -> Bool {
        let target = RoutineReplaceTarget(engine: engine, activityID: activityID, notification: notification,
                                          replacedID: serverID, viaLane: viaLane)
        guard let message = g_dbus_message_new_method_call(server, "/org/freedesktop/Notifications",
                                                           "org.freedesktop.Notifications", "Notify") else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(message)) }
        g_dbus_message_set_body(message, arguments(of: request, replacing: serverID))
        replies.send(message, on: connection, awaiting: target)
        return true
    }

    /// Asks the server to close `serverID` without waiting (a card the user closed while its
    /// replace was on the way, which the server showed as a new one).
    static func close(serverID: Int32, at server: String, on connection: OpaquePointer) {
        let arguments = g_variant_new_tuple([g_variant_new_uint32(UInt32(bitPattern: serverID))], 1)
        g_dbus_connection_call(connection, server, "/org/freedesktop/Notifications",
                               "org.freedesktop.Notifications", "CloseNotification", arguments,
                               nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, nil, nil)
    }

    /// The `(susssasa{sv}i)` arguments of Notify, as libnotify builds them from a notification
    /// `LibnotifyNotification.apply` set up: app name, replaces id, app icon (libnotify sends ""
    /// on servers of spec 1.1 and later), summary, body, actions, hints plus `sender-pid`, timeout.
    static func arguments(of request: NotificationRequest, replacing serverID: Int32) -> OpaquePointer? {
        var hints = request.hints.sorted { $0.key < $1.key }.map { key, value in
            g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(LibnotifyNotification.variant(value)))
        }
        hints.append(g_variant_new_dict_entry(g_variant_new_string("sender-pid"),
                                              g_variant_new_variant(g_variant_new_int64(Int(processID)))))
        let actions = strings(request.flatActions)
        let children: [OpaquePointer?] = [
            g_variant_new_string(request.appName),
            g_variant_new_uint32(UInt32(bitPattern: serverID)),
            g_variant_new_string(""),
            g_variant_new_string(request.summary),
            g_variant_new_string(request.body),
            actions,
            g_variant_new_array(nil, hints, gsize(hints.count)),
            g_variant_new_int32(request.expireTimeout),
        ]
        return g_variant_new_tuple(children, gsize(children.count))
    }

    /// This process's id for `sender-pid`, read once (glibc asks the kernel at every `getpid`).
    private static let processID = getpid()

    /// An `as` of `texts` (g_variant_new_strv copies them).
    private static func strings(_ texts: [String]) -> OpaquePointer? {
        let copies = texts.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer<CChar>($0) }
        return g_variant_new_strv(pointers, gssize(texts.count))
    }
}

extension RoutineReplace {
    /// Whether libnotify talks to org.freedesktop.Notifications itself: inside Flatpak or Snap
    /// it goes through the notification portal instead (unless NOTIFY_IGNORE_PORTAL is set),
    /// and then every card goes through libnotify.
    static let isAvailable: Bool = {
        if getenv("NOTIFY_IGNORE_PORTAL") != nil { return true }
        return access("/.flatpak-info", F_OK) != 0 && getenv("SNAP") == nil
    }()
}
