import CDBus
import Glibc

/// A private connection to a message bus: the one place that sends, calls and receives.
///
/// Used from one thread only. `exit_on_disconnect` is off, so a vanished bus is reported
/// through `onDisconnect` instead of ending the process.
public final class DBusConnection {
    /// Identifies a handler added with `addMessageHandler`, to remove it.
    public struct HandlerToken: Hashable, Sendable {
        let id: Int
    }

    /// The libdbus connection; this object holds one reference and closes it in deinit.
    let pointer: OpaquePointer
    /// The unique name the bus gave us, e.g. `:1.42`.
    public let uniqueName: String
    /// Called once when the connection to the bus is lost.
    public var onDisconnect: (() -> Void)?

    private var handlers: [(token: HandlerToken, handler: (DBusMessage) -> Bool)] = []
    private var nextHandlerID = 1
    var loopIntegration: LoopIntegration?

    /// `dbus_connection_open_private` + `dbus_bus_register`: connects to the bus at `address`.
    public init(address: String) throws(DBusError) {
        guard CString.isValidUTF8(address) else { throw .invalidArgs("invalid bus address") }
        let (opened, openError) = withCError { error in
            address.withCString { dbus_connection_open_private($0, error) }
        }
        guard let opened else { throw openError ?? .noServer("could not connect to \(address)") }
        dbus_connection_set_exit_on_disconnect(opened, 0)
        let (registered, registerError) = withCError { dbus_bus_register(opened, $0) }
        guard registered != 0, let name = dbus_bus_get_unique_name(opened) else {
            dbus_connection_close(opened)
            dbus_connection_unref(opened)
            throw registerError ?? .failed("could not register with the bus at \(address)")
        }
        pointer = opened
        uniqueName = String(cString: name)
        dbus_connection_add_filter(pointer, connectionFilterTrampoline, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// The session bus named by `DBUS_SESSION_BUS_ADDRESS`.
    public static func sessionBus() throws(DBusError) -> DBusConnection {
        guard let raw = getenv("DBUS_SESSION_BUS_ADDRESS"), case let address = String(cString: raw),
              !address.isEmpty else {
            throw .noServer("DBUS_SESSION_BUS_ADDRESS is not set: no session bus to connect to "
                            + "(start one with dbus-run-session or log in to a desktop session)")
        }
        return try DBusConnection(address: address)
    }

    deinit {
        loopIntegration?.uninstall()
        if isConnected { dbus_connection_flush(pointer) }
        dbus_connection_remove_filter(pointer, connectionFilterTrampoline, Unmanaged.passUnretained(self).toOpaque())
        dbus_connection_close(pointer)
        dbus_connection_unref(pointer)
    }

    /// `dbus_connection_get_is_connected`.
    public var isConnected: Bool { dbus_connection_get_is_connected(pointer) != 0 }

    /// `dbus_connection_send`: queues `message`; the attached loop (or `flush()`) writes it out.
    /// A reply to a message that was never sent (no serial) is dropped, as the bus would refuse it.
    public func send(_ message: DBusMessage) {
        if message.kind == .methodReturn || message.kind == .error, message.replySerial == 0 { return }
        message.seal()
        dbus_connection_send(pointer, message.pointer, nil)
    }

    /// `dbus_connection_flush`: blocks until every queued message is written.
    public func flush() { dbus_connection_flush(pointer) }

    /// `dbus_connection_send_with_reply_and_block`: sends a method call and waits for its reply.
    /// An error reply is thrown as a `DBusError` with the remote name and message.
    public func call(_ message: DBusMessage, timeoutMilliseconds: Int32 = 25_000) throws(DBusError) -> DBusMessage {
        guard message.kind == .methodCall else { throw .invalidArgs("only method calls have replies") }
        let timeout = timeoutMilliseconds < 0 ? -1 : timeoutMilliseconds
        message.seal()
        let (reply, error) = withCError { dbus_connection_send_with_reply_and_block(pointer, message.pointer, timeout, $0) }
        guard let reply else { throw error ?? .noReply("no reply to \(message.member ?? "call")") }
        return DBusMessage(adopting: reply, sealed: true)
    }

    /// Builds a method call, waits for the reply and returns its arguments.
    public func callMethod(destination: String, path: String, interface: String, member: String,
                           arguments: [DBusValue] = [],
                           timeoutMilliseconds: Int32 = 25_000) throws(DBusError) -> [DBusValue] {
        let message = try DBusMessage.methodCall(destination: destination, path: path, interface: interface, member: member)
        try message.append(arguments)
        return try call(message, timeoutMilliseconds: timeoutMilliseconds).arguments()
    }

    /// Adds a handler for incoming messages (signals, method calls); it returns true when it
    /// handled the message, which stops later handlers from seeing it. Handlers run in the
    /// order they were added, when the attached loop dispatches.
    @discardableResult
    public func addMessageHandler(_ handler: @escaping (DBusMessage) -> Bool) -> HandlerToken {
        let token = HandlerToken(id: nextHandlerID)
        nextHandlerID += 1
        handlers.append((token, handler))
        return token
    }

    /// Removes a handler added with `addMessageHandler`.
    public func removeMessageHandler(_ token: HandlerToken) {
        handlers.removeAll { $0.token == token }
    }

    /// Gives an incoming message to the handlers; called by the libdbus filter.
    fileprivate func handleIncoming(_ raw: OpaquePointer) -> DBusHandlerResult {
        let message = DBusMessage(borrowing: raw)
        if message.kind == .signal, message.interface == "org.freedesktop.DBus.Local",
           message.member == "Disconnected" {
            let disconnected = onDisconnect
            onDisconnect = nil
            disconnected?()
        }
        for entry in handlers where entry.handler(message) {
            return DBUS_HANDLER_RESULT_HANDLED
        }
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }
}

/// The libdbus filter: hands each dispatched message to the connection in `userData`.
private func connectionFilterTrampoline(_ raw: OpaquePointer?, _ message: OpaquePointer?,
                                        _ userData: UnsafeMutableRawPointer?) -> DBusHandlerResult {
    guard let message, let userData else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    let connection = Unmanaged<DBusConnection>.fromOpaque(userData).takeUnretainedValue()
    return connection.handleIncoming(message)
}
