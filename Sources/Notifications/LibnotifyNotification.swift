import CNotify

/// Where a notification's C signals go: the engine, weakly, and which activity the card is.
final class NotificationSignalTarget {
    weak var engine: NotificationEngine?
    let activityID: String

    init(engine: NotificationEngine, activityID: String) {
        self.engine = engine
        self.activityID = activityID
    }
}

/// Trampoline for the NotifyNotification "closed" signal.
private func notificationClosedTrampoline(_ notification: UnsafeMutablePointer<NotifyNotification>?, _ data: gpointer?) {
    guard let notification, let data else { return }
    let target = Unmanaged<NotificationSignalTarget>.fromOpaque(data).takeUnretainedValue()
    let reason = notify_notification_get_closed_reason(notification)
    let serverID = la_notification_get_id(notification)
    target.engine?.notificationClosed(activityID: target.activityID, notification: notification,
                                      reason: Int32(reason), serverID: serverID)
}

/// Trampoline for a NotifyActionCallback (a card button was pressed).
private func notificationActionTrampoline(_ notification: UnsafeMutablePointer<NotifyNotification>?,
                                          _ action: UnsafeMutablePointer<CChar>?, _ data: gpointer?) {
    guard let action, let data else { return }
    let target = Unmanaged<NotificationSignalTarget>.fromOpaque(data).takeUnretainedValue()
    target.engine?.actionInvoked(activityID: target.activityID, actionKey: String(cString: action))
}

/// GClosureNotify for the "closed" handler's userdata.
private func releaseClosedTarget(_ data: gpointer?, _ closure: UnsafeMutablePointer<GClosure>?) {
    if let data { Unmanaged<NotificationSignalTarget>.fromOpaque(data).release() }
}

/// GFreeFunc for an action's userdata.
private func releaseActionTarget(_ data: gpointer?) {
    if let data { Unmanaged<NotificationSignalTarget>.fromOpaque(data).release() }
}

/// Why libnotify refused to show or close a card (its GError message).
struct LibnotifyError: Error, CustomStringConvertible {
    let description: String
}

/// One NotifyNotification: a card on the current server. Lives on the notification thread
/// only; every call here may block on the server (synchronous D-Bus inside libnotify).
final class LibnotifyNotification {
    let pointer: UnsafeMutablePointer<NotifyNotification>
    private let target: NotificationSignalTarget

    /// A new notification for `activityID`; `serverID` takes back a card the server still shows.
    init?(activityID: String, engine: NotificationEngine, serverID: Int32? = nil) {
        guard let made = notify_notification_new("", nil, nil) else { return nil }
        pointer = made
        target = NotificationSignalTarget(engine: engine, activityID: activityID)
        la_notification_connect_closed(pointer, notificationClosedTrampoline,
                                       Unmanaged.passRetained(target).toOpaque(), releaseClosedTarget)
        if let serverID, serverID > 0 { la_notification_set_id(pointer, serverID) }
    }

    deinit { la_notification_unref(pointer) }

    /// The server's id of this card; 0 before the first show and after it was closed.
    var serverID: Int32 { la_notification_get_id(pointer) }

    /// The buttons libnotify knows for this card (it maps ActionInvoked by their keys).
    private(set) var appliedActions: [CardButton] = []

    /// Takes the id the server gave this card in answer to a replace (a new one: the server
    /// no longer had the old); libnotify matches the card's signals by it.
    func adoptServerID(_ serverID: Int32) {
        la_notification_set_id(pointer, serverID)
    }

    /// Sets everything of `request` on the notification (nothing is sent yet).
    func apply(_ request: NotificationRequest) {
        notify_notification_update(pointer, request.summary, request.body,
                                   request.iconName.isEmpty ? nil : request.iconName)
        notify_notification_set_app_name(pointer, request.appName)
        notify_notification_set_timeout(pointer, request.expireTimeout)
        notify_notification_clear_hints(pointer)
        for (key, value) in request.hints {
            notify_notification_set_hint(pointer, key, Self.variant(value))
        }
        notify_notification_clear_actions(pointer)
        appliedActions = request.actions
        for button in request.actions {
            let userdata = Unmanaged.passRetained(target).toOpaque()
            notify_notification_add_action(pointer, button.key, button.label, notificationActionTrampoline,
                                           userdata, releaseActionTarget)
        }
    }

    /// Sends Notify (notify_notification_show): a new card, or a replace of the shown one.
    func show() throws(LibnotifyError) {
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_show(pointer, &error) == la_g_false {
            throw Self.consume(error)
        }
    }

    /// Replaces the shown card with one that expires at once (notify_notification_set_timeout
    /// + show): for servers that ignore CloseNotification on screen (notification-daemon).
    func expireNow() throws(LibnotifyError) {
        guard serverID != 0 else { return }
        notify_notification_set_timeout(pointer, 1)
        try show()
    }

    /// Sends CloseNotification (notify_notification_close) if the server shows this card.
    func close() throws(LibnotifyError) {
        guard serverID != 0 else { return }
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_close(pointer, &error) == la_g_false {
            throw Self.consume(error)
        }
    }

    private static func consume(_ error: UnsafeMutablePointer<GError>?) -> LibnotifyError {
        guard let error else { return LibnotifyError(description: "unknown libnotify error") }
        defer { g_error_free(error) }
        return LibnotifyError(description: error.pointee.message.map { String(cString: $0) } ?? "unknown libnotify error")
    }

    /// A floating GVariant of the hint's D-Bus type (libnotify sinks it).
    static func variant(_ value: HintValue) -> OpaquePointer? {
        switch value {
        case .int32(let number): g_variant_new_int32(number)
        case .byte(let byte): g_variant_new_byte(byte)
        case .boolean(let flag): g_variant_new_boolean(flag ? la_g_true : la_g_false)
        case .string(let text): g_variant_new_string(text)
        }
    }
}
