import DBus

/// The `org.freedesktop.Notifications` table (spec 1.2) that the fake notification servers of
/// the tests and the benchmark serve: each gives only what its Notify and CloseNotification do.
public enum NotificationsInterface {
    public static let name = "org.freedesktop.Notifications"
    public static let path = "/org/freedesktop/Notifications"

    /// One Notify call, decoded: the id the server must return is the handler's answer.
    public struct NotifyArguments: Sendable {
        public let appName: String
        public let replacesID: UInt32
        public let icon: String
        public let summary: String
        public let body: String
        public let actions: [String]
        public let hints: [String: DBusValue]
        public let timeout: Int32
    }

    public static func make(serverName: String, vendor: String, version: String, capabilities: [String],
                            notify: @escaping (NotifyArguments) -> UInt32,
                            close: @escaping (UInt32) -> Void) -> DBusInterface {
        DBusInterface(name: name, methods: [
            DBusMethod("Notify", inputs: [DBusArgument("app_name", "s"), DBusArgument("replaces_id", "u"),
                                          DBusArgument("app_icon", "s"), DBusArgument("summary", "s"),
                                          DBusArgument("body", "s"), DBusArgument("actions", "as"),
                                          DBusArgument("hints", "a{sv}"), DBusArgument("expire_timeout", "i")],
                       outputs: [DBusArgument("id", "u")]) { call throws(DBusError) in
                let a = call.arguments
                guard a.count == 8, case .uint32(let replaces) = a[1], case .int32(let timeout) = a[7] else {
                    throw .invalidArgs("Notify expects (susssasa{sv}i)")
                }
                var actions: [String] = []
                if case .array(_, let items) = a[5] { actions = items.compactMap(\.string) }
                var hints: [String: DBusValue] = [:]
                if case .dictionary(_, _, let entries) = a[6] {
                    for entry in entries { if let key = entry.key.string, case .variant(let v) = entry.value { hints[key] = v } }
                }
                let id = notify(NotifyArguments(appName: a[0].string ?? "", replacesID: replaces, icon: a[2].string ?? "",
                                                summary: a[3].string ?? "", body: a[4].string ?? "", actions: actions,
                                                hints: hints, timeout: timeout))
                return [.uint32(id)]
            },
            DBusMethod("CloseNotification", inputs: [DBusArgument("id", "u")]) { call throws(DBusError) in
                if case .uint32(let id)? = call.arguments.first { close(id) }
                return []
            },
            DBusMethod("GetCapabilities", outputs: [DBusArgument("caps", "as")]) { _ throws(DBusError) in
                [.array(elementSignature: "s", capabilities.map { .string($0) })]
            },
            DBusMethod("GetServerInformation", outputs: [DBusArgument("name", "s"), DBusArgument("vendor", "s"),
                                                         DBusArgument("version", "s"), DBusArgument("spec_version", "s")]) { _ throws(DBusError) in
                [.string(serverName), .string(vendor), .string(version), .string("1.2")]
            },
        ], signals: [
            DBusSignal("NotificationClosed", [DBusArgument("id", "u"), DBusArgument("reason", "u")]),
            DBusSignal("ActionInvoked", [DBusArgument("id", "u"), DBusArgument("action_key", "s")]),
        ])
    }
}
