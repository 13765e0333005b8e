import CDBus

/// Calls to the bus daemon itself: names and match rules.
extension DBusConnection {
    /// The flags of `RequestName`.
    public struct RequestNameFlags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let allowReplacement = RequestNameFlags(rawValue: UInt32(DBUS_NAME_FLAG_ALLOW_REPLACEMENT))
        public static let replaceExisting = RequestNameFlags(rawValue: UInt32(DBUS_NAME_FLAG_REPLACE_EXISTING))
        public static let doNotQueue = RequestNameFlags(rawValue: UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE))
    }

    /// The answers of `RequestName`.
    public enum RequestNameReply: Sendable, Equatable {
        case primaryOwner, inQueue, exists, alreadyOwner
    }

    /// `dbus_bus_request_name` (blocking).
    public func requestName(_ name: String,
                            flags: RequestNameFlags = [.doNotQueue]) throws(DBusError) -> RequestNameReply {
        guard CString.isValidBusName(name), !name.hasPrefix(":") else {
            throw .invalidArgs("invalid well-known bus name \"\(name)\"")
        }
        let (result, error) = withCError { error in
            name.withCString { dbus_bus_request_name(pointer, $0, flags.rawValue, error) }
        }
        if let error { throw error }
        switch result {
        case DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER: return .primaryOwner
        case DBUS_REQUEST_NAME_REPLY_IN_QUEUE: return .inQueue
        case DBUS_REQUEST_NAME_REPLY_EXISTS: return .exists
        case DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER: return .alreadyOwner
        default: throw .failed("unexpected RequestName reply \(result)")
        }
    }

    /// `dbus_bus_release_name` (blocking): gives up a well-known name this connection owns;
    /// true when it was ours (false: it was not, or nobody owned it).
    @discardableResult
    public func releaseName(_ name: String) throws(DBusError) -> Bool {
        guard CString.isValidBusName(name), !name.hasPrefix(":") else {
            throw .invalidArgs("invalid well-known bus name \"\(name)\"")
        }
        let (result, error) = withCError { error in
            name.withCString { dbus_bus_release_name(pointer, $0, error) }
        }
        if let error { throw error }
        return result == DBUS_RELEASE_NAME_REPLY_RELEASED
    }

    /// `dbus_bus_name_has_owner` (blocking).
    public func nameHasOwner(_ name: String) throws(DBusError) -> Bool {
        guard CString.isValidBusName(name) else { throw .invalidArgs("invalid bus name \"\(name)\"") }
        let (owned, error) = withCError { error in
            name.withCString { dbus_bus_name_has_owner(pointer, $0, error) }
        }
        if let error { throw error }
        return owned != 0
    }

    /// `org.freedesktop.DBus.GetNameOwner` (blocking): the unique name that owns `name` now,
    /// or nil when nobody does (or the bus cannot say).
    public func owner(of name: String) -> String? {
        let reply = try? callMethod(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                    interface: "org.freedesktop.DBus", member: "GetNameOwner", arguments: [.string(name)])
        return reply?.first?.string
    }

    /// `dbus_bus_add_match` (blocking, so a malformed rule is reported).
    public func addMatch(_ rule: String) throws(DBusError) {
        guard CString.isValidUTF8(rule) else { throw .invalidArgs("match rule contains a NUL character") }
        let (_, error) = withCError { error in
            rule.withCString { dbus_bus_add_match(pointer, $0, error) }
        }
        if let error { throw error }
    }

    /// `dbus_bus_remove_match`, without waiting for the answer.
    public func removeMatch(_ rule: String) {
        guard CString.isValidUTF8(rule) else { return }
        rule.withCString { dbus_bus_remove_match(pointer, $0, nil) }
    }
}
