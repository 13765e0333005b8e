import CDBus

/// The header fields of a message, read straight from libdbus.
extension DBusMessage {
    /// `dbus_message_get_type`, as a `Kind`.
    public var kind: Kind {
        switch dbus_message_get_type(pointer) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: .error
        case DBUS_MESSAGE_TYPE_SIGNAL: .signal
        default: .unknown
        }
    }

    /// `dbus_message_get_path`.
    public var path: String? { dbus_message_get_path(pointer).map { String(cString: $0) } }
    /// `dbus_message_get_interface`.
    public var interface: String? { dbus_message_get_interface(pointer).map { String(cString: $0) } }
    /// `dbus_message_get_member`.
    public var member: String? { dbus_message_get_member(pointer).map { String(cString: $0) } }
    /// `dbus_message_get_sender`: the unique name of the sender (set by the bus).
    public var sender: String? { dbus_message_get_sender(pointer).map { String(cString: $0) } }
    /// `dbus_message_get_destination` / `dbus_message_set_destination` (before sending; a
    /// signal with a destination goes to that connection only).
    public var destination: String? {
        get { dbus_message_get_destination(pointer).map { String(cString: $0) } }
        set {
            guard !isSealed else { return }
            if let newValue, CString.isValidBusName(newValue) {
                _ = newValue.withCString { dbus_message_set_destination(pointer, $0) }
            } else {
                dbus_message_set_destination(pointer, nil)
            }
        }
    }
    /// `dbus_message_get_error_name`, for error replies.
    public var errorName: String? { dbus_message_get_error_name(pointer).map { String(cString: $0) } }
    /// `dbus_message_get_signature`: the signature of the body, e.g. `sa{sv}`.
    public var signature: String { dbus_message_get_signature(pointer).map { String(cString: $0) } ?? "" }
    /// `dbus_message_get_serial`: 0 until the message is sent.
    public var serial: UInt32 { dbus_message_get_serial(pointer) }
    /// `dbus_message_get_reply_serial`: the serial of the call this replies to.
    public var replySerial: UInt32 { dbus_message_get_reply_serial(pointer) }

    /// `dbus_message_get_no_reply` / `dbus_message_set_no_reply`: the caller wants no reply.
    public var noReplyExpected: Bool {
        get { dbus_message_get_no_reply(pointer) != 0 }
        set { if !isSealed { dbus_message_set_no_reply(pointer, newValue ? 1 : 0) } }
    }

    /// For error replies: the error name and its first string argument as a `DBusError`.
    public var asError: DBusError? {
        guard kind == .error, let name = errorName else { return nil }
        let text = (try? arguments())?.first?.string ?? ""
        return DBusError(name: name, message: text)
    }
}
