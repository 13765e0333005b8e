import CDBus
import Glibc

/// Checks that keep libdbus from aborting the process: it asserts on strings with NUL,
/// invalid UTF-8 and malformed names, so every string is checked here before it is passed on.
enum CString {
    /// Whether `text` can cross into C unchanged (no NUL) and is UTF-8 that libdbus accepts.
    static func isValidUTF8(_ text: String) -> Bool {
        withoutNUL(text) { dbus_validate_utf8($0, nil) != 0 }
    }

    /// `dbus_validate_path`: a syntactically valid object path.
    static func isValidObjectPath(_ path: String) -> Bool {
        withoutNUL(path) { dbus_validate_path($0, nil) != 0 }
    }

    /// `dbus_validate_interface`: a valid interface name.
    static func isValidInterface(_ name: String) -> Bool {
        withoutNUL(name) { dbus_validate_interface($0, nil) != 0 }
    }

    /// `dbus_validate_member`: a valid method, signal or property name.
    static func isValidMember(_ name: String) -> Bool {
        withoutNUL(name) { dbus_validate_member($0, nil) != 0 }
    }

    /// `dbus_validate_error_name`: a valid error name.
    static func isValidErrorName(_ name: String) -> Bool {
        withoutNUL(name) { dbus_validate_error_name($0, nil) != 0 }
    }

    /// `dbus_validate_bus_name`: a valid unique or well-known bus name.
    static func isValidBusName(_ name: String) -> Bool {
        withoutNUL(name) { dbus_validate_bus_name($0, nil) != 0 }
    }

    /// `text` with NULs replaced and invalid sequences dropped, for messages that must go out anyway.
    static func sanitized(_ text: String) -> String {
        if isValidUTF8(text) { return text }
        let cleaned = String(text.unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : Character($0) })
        return isValidUTF8(cleaned) ? cleaned : "(unprintable text)"
    }

    /// Runs `check` on `text` as a C string; false when `text` holds a NUL (C would see it cut
    /// short there). One pass over the bytes (strlen), where `utf8.contains(0)` went through
    /// the generic collection search (a tenth of a tick's CPU, issue 29).
    static func withoutNUL(_ text: String, _ check: (UnsafePointer<CChar>) -> Bool) -> Bool {
        text.withCString { strlen($0) == text.utf8.count && check($0) }
    }
}

/// Runs a libdbus call that reports failure through a `DBusError*` and converts it.
func withCError<Result>(_ body: (UnsafeMutablePointer<CDBus.DBusError>) -> Result) -> (Result, DBusError?) {
    var error = CDBus.DBusError()
    dbus_error_init(&error)
    defer { dbus_error_free(&error) }
    let result = body(&error)
    guard dbus_error_is_set(&error) != 0 else { return (result, nil) }
    let name = error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
    let message = error.message.map { String(cString: $0) } ?? ""
    return (result, DBusError(name: name, message: message))
}
