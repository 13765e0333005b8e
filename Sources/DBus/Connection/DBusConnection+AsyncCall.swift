import CDBus

/// Method calls that do not wait: the reply (or error) comes back to a handler when the
/// attached loop dispatches it, so a slow or hung peer never stalls the caller's thread.
extension DBusConnection {
    /// What an asynchronous call ended with: the reply's arguments or the error (a remote
    /// error reply, a timeout as `NoReply`, a lost connection as `Disconnected`).
    public typealias CallResult = Result<[DBusValue], DBusError>

    /// `dbus_connection_send_with_reply` + `dbus_pending_call_set_notify`: sends `message` and
    /// returns at once; `completion` runs exactly once, on the loop thread, when the reply
    /// arrives or the call times out. The connection must be attached to a loop.
    public func callAsync(_ message: DBusMessage, timeoutMilliseconds: Int32 = 25_000,
                          completion: @escaping (CallResult) -> Void) {
        guard message.kind == .methodCall else {
            completion(.failure(.invalidArgs("only method calls have replies")))
            return
        }
        message.seal()
        var pending: OpaquePointer?
        let timeout = timeoutMilliseconds < 0 ? -1 : timeoutMilliseconds
        guard dbus_connection_send_with_reply(pointer, message.pointer, &pending, timeout) != 0, let pending else {
            completion(.failure(.disconnected("not connected: \(message.member ?? "call") was not sent")))
            return
        }
        let box = PendingReply(completion)
        let context = Unmanaged.passRetained(box).toOpaque()
        if dbus_pending_call_set_notify(pending, pendingCallTrampoline, context, releasePendingReply) == 0 {
            Unmanaged<PendingReply>.fromOpaque(context).release()
            dbus_pending_call_cancel(pending)
            dbus_pending_call_unref(pending)
            completion(.failure(.noMemory("could not wait for the reply to \(message.member ?? "call")")))
            return
        }
        // A reply that arrived before the notify was set does not call it: finish it here.
        if dbus_pending_call_get_completed(pending) != 0 { box.finish(pending) }
        dbus_pending_call_unref(pending)
    }

    /// Builds a method call and sends it with `callAsync`; an invalid name or argument is
    /// reported to `completion` at once.
    public func callMethodAsync(destination: String, path: String, interface: String, member: String,
                                arguments: [DBusValue] = [], timeoutMilliseconds: Int32 = 25_000,
                                completion: @escaping (CallResult) -> Void) {
        do {
            let message = try DBusMessage.methodCall(destination: destination, path: path,
                                                     interface: interface, member: member)
            try message.append(arguments)
            callAsync(message, timeoutMilliseconds: timeoutMilliseconds, completion: completion)
        } catch {
            completion(.failure(error))
        }
    }
}

/// The completion of one pending call, kept alive by libdbus (as the notify's user data)
/// until the pending call is freed; it runs at most once.
private final class PendingReply {
    private var completion: ((DBusConnection.CallResult) -> Void)?

    init(_ completion: @escaping (DBusConnection.CallResult) -> Void) {
        self.completion = completion
    }

    /// Steals the reply of the completed `pending` and hands it to the completion.
    func finish(_ pending: OpaquePointer) {
        guard let completion else { return }
        self.completion = nil
        guard let raw = dbus_pending_call_steal_reply(pending) else {
            completion(.failure(.noReply("the call completed without a reply")))
            return
        }
        let reply = DBusMessage(adopting: raw, sealed: true)
        if let error = reply.asError {
            completion(.failure(error))
            return
        }
        do {
            completion(.success(try reply.arguments()))
        } catch {
            completion(.failure(error))
        }
    }
}

/// DBusPendingCallNotifyFunction: the reply (or a timeout error) is there.
private func pendingCallTrampoline(_ pending: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) {
    guard let pending, let userData else { return }
    Unmanaged<PendingReply>.fromOpaque(userData).takeUnretainedValue().finish(pending)
}

/// DBusFreeFunction for the notify's user data.
private func releasePendingReply(_ userData: UnsafeMutableRawPointer?) {
    if let userData { Unmanaged<PendingReply>.fromOpaque(userData).release() }
}
