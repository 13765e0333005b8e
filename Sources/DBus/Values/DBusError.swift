/// A D-Bus error: a dotted error name plus a message for people.
///
/// Error replies received from the bus are thrown as this type; method handlers throw it
/// to send an error reply.
public struct DBusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The error name, e.g. `org.freedesktop.DBus.Error.InvalidArgs`.
    public let name: String
    /// What went wrong, for people.
    public let message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }

    /// `org.freedesktop.DBus.Error.<suffix>` with `message`.
    public static func standard(_ suffix: String, _ message: String) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error." + suffix, message: message)
    }

    /// A wrong type, shape or value of an argument.
    public static func invalidArgs(_ message: String) -> DBusError { standard("InvalidArgs", message) }
    public static func unknownMethod(_ message: String) -> DBusError { standard("UnknownMethod", message) }
    public static func unknownObject(_ message: String) -> DBusError { standard("UnknownObject", message) }
    public static func unknownInterface(_ message: String) -> DBusError { standard("UnknownInterface", message) }
    public static func unknownProperty(_ message: String) -> DBusError { standard("UnknownProperty", message) }
    public static func propertyReadOnly(_ message: String) -> DBusError { standard("PropertyReadOnly", message) }
    /// A generic failure with no better name.
    public static func failed(_ message: String) -> DBusError { standard("Failed", message) }
    public static func noReply(_ message: String) -> DBusError { standard("NoReply", message) }
    public static func serviceUnknown(_ message: String) -> DBusError { standard("ServiceUnknown", message) }
    public static func noMemory(_ message: String) -> DBusError { standard("NoMemory", message) }
    public static func noServer(_ message: String) -> DBusError { standard("NoServer", message) }
    public static func disconnected(_ message: String) -> DBusError { standard("Disconnected", message) }
    public static func objectPathInUse(_ message: String) -> DBusError { standard("ObjectPathInUse", message) }
}
