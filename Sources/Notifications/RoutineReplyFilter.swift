import CNotify
import ThreadSupport

/// GDBusMessageFilterFunction: runs on GDBus's worker thread for every message of the
/// connection; consumes the answers to routine replaces.
private func routineReplyFilterTrampoline(_ connection: OpaquePointer?, _ message: OpaquePointer?, _ incoming: gboolean,
                                          _ data: gpointer?) -> OpaquePointer? {
    guard let message, let data, incoming != la_g_false else { return message }
    let filter = Unmanaged<RoutineReplyFilter>.fromOpaque(data).takeUnretainedValue()
    guard filter.consume(message) else { return message }
    g_object_unref(UnsafeMutableRawPointer(message))
    return nil
}

/// GDestroyNotify of the filter's userdata.
private func releaseRoutineReplyFilter(_ data: gpointer?) {
    if let data { Unmanaged<RoutineReplyFilter>.fromOpaque(data).release() }
}

/// The answers to routine replaces (`RoutineReplace`), taken off libnotify's connection by a
/// GDBus message filter on its worker thread, which reads them anyway, and handed to the
/// engine on the card thread: the card's next call waits for its answer (a new id is taken,
/// a failure logged). A plain answer to a replace sent through the lane goes to the lane.
final class RoutineReplyFilter: @unchecked Sendable {
    private let lock = ThreadLock()
    private var awaited: [UInt32: RoutineReplaceTarget] = [:]
    private let context: MainContextHandle
    /// Where the answers to replaces sent through the lane go first (`PresenterInbox.laneAnswered`).
    private let inbox: PresenterInbox
    private let connection: OpaquePointer
    private var filterID: guint = 0

    /// Installs the filter on `connection` (g_dbus_connection_add_filter); answers that need
    /// the engine are run on `context`, the card thread's.
    init(connection: OpaquePointer, context: MainContextHandle, inbox: PresenterInbox) {
        self.connection = connection
        self.context = context
        self.inbox = inbox
        filterID = g_dbus_connection_add_filter(connection, routineReplyFilterTrampoline,
                                                Unmanaged.passRetained(self).toOpaque(), releaseRoutineReplyFilter)
    }

    /// Removes the filter (g_dbus_connection_remove_filter); answers still due are ignored.
    func remove() {
        if filterID != 0 { g_dbus_connection_remove_filter(connection, filterID) }
        filterID = 0
        lock.lock(); awaited.removeAll(); lock.unlock()
    }

    /// Sends `message` (g_dbus_connection_send_message) and awaits its answer for `target`.
    /// Under the lock, so an answer cannot be read before it is awaited.
    func send(_ message: OpaquePointer, on connection: OpaquePointer, awaiting target: RoutineReplaceTarget) {
        var serial: guint32 = 0
        var error: UnsafeMutablePointer<GError>?
        lock.lock()
        let sent = g_dbus_connection_send_message(connection, message, G_DBUS_SEND_MESSAGE_FLAGS_NONE, &serial, &error)
        if sent != la_g_false { awaited[serial] = target }
        lock.unlock()
        guard sent == la_g_false else { return }
        let text = error?.pointee.message.map { String(cString: $0) } ?? "not sent"
        if let error { g_error_free(error) }
        let failure = LibnotifyError(description: text)
        context.invoke { target.engine?.routineReplaceAnswered(target, answer: .failure(failure)) }
    }

    /// Stops awaiting the answers still due (the server that owed them is gone).
    func forgetAwaited() {
        lock.lock(); awaited.removeAll(); lock.unlock()
    }

    /// How many answers are still to come.
    var awaitedCount: Int {
        lock.lock(); defer { lock.unlock() }
        return awaited.count
    }

    /// On the worker thread: whether `message` answers a routine replace (then it is consumed).
    fileprivate func consume(_ message: OpaquePointer) -> Bool {
        let type = g_dbus_message_get_message_type(message)
        guard type == G_DBUS_MESSAGE_TYPE_METHOD_RETURN || type == G_DBUS_MESSAGE_TYPE_ERROR else { return false }
        let serial = g_dbus_message_get_reply_serial(message)
        lock.lock()
        guard let target = awaited.removeValue(forKey: serial) else { lock.unlock(); return false }
        lock.unlock()
        let answer = Self.answer(of: message, type: type, replacedID: target.replacedID)
        // A plain answer (the same id) to a replace sent through the lane needs nothing of the
        // card thread: the lane lets the card's next replace go, and the thread sleeps on.
        if target.viaLane, case .success(let serverID) = answer, serverID == target.replacedID,
           inbox.laneAnswered(id: target.activityID, notification: target.notification) {
            return true
        }
        context.invoke { target.engine?.routineReplaceAnswered(target, answer: answer) }
        return true
    }

    /// The id a Notify answer carries, or the error it is.
    private static func answer(of message: OpaquePointer, type: GDBusMessageType, replacedID: Int32) -> Result<Int32, LibnotifyError> {
        let body = g_dbus_message_get_body(message)
        if type == G_DBUS_MESSAGE_TYPE_ERROR {
            let name = g_dbus_message_get_error_name(message).map { String(cString: $0) } ?? "error"
            var text = ""
            if let body, g_variant_n_children(body) > 0, let first = g_variant_get_child_value(body, 0) {
                if g_variant_is_of_type(first, la_variant_type_string) != la_g_false {
                    text = String(cString: g_variant_get_string(first, nil))
                }
                g_variant_unref(first)
            }
            return .failure(LibnotifyError(description: text.isEmpty ? name : "\(name): \(text)"))
        }
        guard let body, g_variant_n_children(body) == 1, let child = g_variant_get_child_value(body, 0) else {
            return .success(replacedID)
        }
        defer { g_variant_unref(child) }
        guard g_variant_is_of_type(child, la_variant_type_uint32) != la_g_false else { return .success(replacedID) }
        return .success(Int32(bitPattern: g_variant_get_uint32(child)))
    }
}
