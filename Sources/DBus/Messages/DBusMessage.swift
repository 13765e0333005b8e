import CDBus

/// One D-Bus message (call, reply, error or signal): owns a `DBusMessage*` and frees it in deinit.
///
/// Every factory validates names first, because libdbus aborts the process on invalid ones.
public final class DBusMessage {
    /// The four message types of the D-Bus protocol.
    public enum Kind: Sendable, Equatable {
        case methodCall, methodReturn, error, signal, unknown
    }

    /// The libdbus message; one reference is owned by this object.
    let pointer: OpaquePointer
    /// Whether libdbus has locked the message (it was sent or received): appending would abort.
    private(set) var isSealed: Bool

    /// Takes over one reference to `pointer` (already owned by the caller).
    init(adopting pointer: OpaquePointer, sealed: Bool) {
        self.pointer = pointer
        self.isSealed = sealed
    }

    /// Wraps a message libdbus lends us (e.g. in a filter), taking a reference of our own.
    convenience init(borrowing pointer: OpaquePointer) {
        self.init(adopting: dbus_message_ref(pointer), sealed: true)
    }

    deinit { dbus_message_unref(pointer) }

    /// Marks the message as handed to libdbus for sending; it can no longer be changed.
    func seal() { isSealed = true }

    /// `dbus_message_new_method_call`, after validating every name.
    public static func methodCall(destination: String?, path: String, interface: String?,
                                  member: String) throws(DBusError) -> DBusMessage {
        if let destination, !CString.isValidBusName(destination) {
            throw .invalidArgs("invalid bus name \"\(destination)\"")
        }
        try validate(path: path, interface: interface, member: member)
        let created: OpaquePointer? = path.withCString { cPath in
            member.withCString { cMember in
                withOptionalCString(destination) { cDestination in
                    withOptionalCString(interface) { cInterface in
                        dbus_message_new_method_call(cDestination, cPath, cInterface, cMember)
                    }
                }
            }
        }
        guard let created else { throw .noMemory("could not allocate a method call") }
        return DBusMessage(adopting: created, sealed: false)
    }

    /// A signal with `arguments`, after validating every name; the same message
    /// `dbus_message_new_signal` and appending would make, built body first.
    ///
    /// libdbus rewrites the header's signature field after each top-level argument, at a cost
    /// that grows with the header, so the path, interface and member are set after the body:
    /// a PropertiesChanged of three values took 86,000 instructions the other way round and
    /// 64,000 this way (callgrind, docs/benchmarks.md).
    public static func signal(path: String, interface: String, member: String,
                              arguments: [DBusValue] = []) throws(DBusError) -> DBusMessage {
        try validate(path: path, interface: interface, member: member)
        guard let created = dbus_message_new(DBUS_MESSAGE_TYPE_SIGNAL) else {
            throw .noMemory("could not allocate a signal")
        }
        let message = DBusMessage(adopting: created, sealed: false)
        try message.append(arguments)
        let named = path.withCString { dbus_message_set_path(created, $0) } != 0
            && interface.withCString { dbus_message_set_interface(created, $0) } != 0
            && member.withCString { dbus_message_set_member(created, $0) } != 0
        guard named else { throw .noMemory("could not name a signal") }
        dbus_message_set_no_reply(created, 1)
        return message
    }

    /// A method return addressed to the caller of `call`.
    public static func methodReturn(replyingTo call: DBusMessage) -> DBusMessage {
        reply(type: DBUS_MESSAGE_TYPE_METHOD_RETURN, to: call)
    }

    /// An error reply to `call`; an invalid error name becomes `org.freedesktop.DBus.Error.Failed`.
    public static func error(replyingTo call: DBusMessage, _ error: DBusError) -> DBusMessage {
        let message = reply(type: DBUS_MESSAGE_TYPE_ERROR, to: call)
        let name = CString.isValidErrorName(error.name) ? error.name : DBusError.failed("").name
        _ = name.withCString { dbus_message_set_error_name(message.pointer, $0) }
        try? message.append([.string(CString.sanitized(error.message))])
        return message
    }

    /// Builds a reply by hand rather than with `dbus_message_new_method_return`, which
    /// aborts when the call was never sent (serial 0).
    private static func reply(type: Int32, to call: DBusMessage) -> DBusMessage {
        guard let created = dbus_message_new(type) else {
            fatalError("libdbus could not allocate a reply (out of memory)")
        }
        if let sender = call.sender {
            _ = sender.withCString { dbus_message_set_destination(created, $0) }
        }
        if call.serial != 0 { _ = dbus_message_set_reply_serial(created, call.serial) }
        dbus_message_set_no_reply(created, 1)
        return DBusMessage(adopting: created, sealed: false)
    }

    private static func validate(path: String, interface: String?, member: String) throws(DBusError) {
        guard CString.isValidObjectPath(path) else { throw .invalidArgs("invalid object path \"\(path)\"") }
        if let interface, !CString.isValidInterface(interface) {
            throw .invalidArgs("invalid interface name \"\(interface)\"")
        }
        guard CString.isValidMember(member) else { throw .invalidArgs("invalid member name \"\(member)\"") }
    }
}

/// Calls `body` with a C string for `text`, or with NULL when it is nil.
func withOptionalCString<Result>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
