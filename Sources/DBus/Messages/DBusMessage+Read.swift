import CDBus
import Glibc

/// Reading arguments with `DBusMessageIter` into `DBusValue`s.
extension DBusMessage {
    /// All arguments of the message, fully decoded; throws for types this layer does not carry (unix fds).
    public func arguments() throws(DBusError) -> [DBusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(pointer, &iterator) != 0 else { return [] }
        return try MessageReader.readAll(&iterator)
    }
}

/// Recursive reader over `dbus_message_iter_get_arg_type` / `get_basic` / `recurse`.
enum MessageReader {
    /// Reads every value from the iterator's position to its end.
    static func readAll(_ iterator: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(iterator) != cdbus_type_invalid {
            values.append(try read(iterator))
            dbus_message_iter_next(iterator)
        }
        return values
    }

    /// Reads the value at the iterator's position without advancing.
    static func read(_ iterator: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(iterator)
        switch type {
        case cdbus_type_byte: return .byte(basic(iterator).byt)
        case cdbus_type_boolean: return .boolean(basic(iterator).bool_val != 0)
        case cdbus_type_int16: return .int16(basic(iterator).i16)
        case cdbus_type_uint16: return .uint16(basic(iterator).u16)
        case cdbus_type_int32: return .int32(basic(iterator).i32)
        case cdbus_type_uint32: return .uint32(basic(iterator).u32)
        case cdbus_type_int64: return .int64(Int64(basic(iterator).i64))
        case cdbus_type_uint64: return .uint64(UInt64(basic(iterator).u64))
        case cdbus_type_double: return .double(basic(iterator).dbl)
        case cdbus_type_string: return .string(text(iterator))
        case cdbus_type_object_path: return .objectPath(text(iterator))
        case cdbus_type_signature: return .signature(text(iterator))
        case cdbus_type_variant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(iterator, &sub)
            return .variant(try read(&sub))
        case cdbus_type_struct:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(iterator, &sub)
            return .structure(try readAll(&sub))
        case cdbus_type_array:
            return try readArray(iterator)
        default:
            let code = UnicodeScalar(UInt8(truncatingIfNeeded: type))
            throw .invalidArgs("unsupported D-Bus type '\(Character(code))' in message")
        }
    }

    /// Reads an array, or a dictionary when its elements are dict entries.
    private static func readArray(_ iterator: UnsafeMutablePointer<DBusMessageIter>) throws(DBusError) -> DBusValue {
        let (keySignature, valueSignature, elementSignature) = arrayTypes(iterator)
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(iterator, &sub)
        guard let keySignature, let valueSignature else {
            return .array(elementSignature: elementSignature, try readAll(&sub))
        }
        var entries: [DBusDictEntry] = []
        while dbus_message_iter_get_arg_type(&sub) == cdbus_type_dict_entry {
            var pair = DBusMessageIter()
            dbus_message_iter_recurse(&sub, &pair)
            // libdbus validated the message: an entry holds a key, then a value.
            let key = try read(&pair)
            guard dbus_message_iter_next(&pair) != 0 else { throw .invalidArgs("malformed dictionary entry") }
            entries.append(DBusDictEntry(key: key, value: try read(&pair)))
            dbus_message_iter_next(&sub)
        }
        return .dictionary(keySignature: keySignature, valueSignature: valueSignature, entries)
    }

    /// The array's element signature, and for a dictionary its key and value signatures. `a{sv}`,
    /// what most calls carry, is known by its bytes without making substrings.
    private static func arrayTypes(_ iterator: UnsafeMutablePointer<DBusMessageIter>)
        -> (key: String?, value: String?, element: String) {
        guard let raw = dbus_message_iter_get_signature(iterator) else { return (nil, nil, "") }
        defer { dbus_free(raw) }
        if strcmp(raw, "a{sv}") == 0 { return ("s", "v", "{sv}") }
        let elementSignature = String(String(cString: raw).dropFirst())
        guard elementSignature.hasPrefix("{") else { return (nil, nil, elementSignature) }
        let inner = elementSignature.dropFirst().dropLast()
        return (String(inner.prefix(1)), String(inner.dropFirst()), elementSignature)
    }

    /// `dbus_message_iter_get_basic` into an 8-byte union, the size libdbus may write.
    private static func basic(_ iterator: UnsafeMutablePointer<DBusMessageIter>) -> DBusBasicValue {
        var storage = DBusBasicValue()
        dbus_message_iter_get_basic(iterator, &storage)
        return storage
    }

    /// A string-like basic value (`s`, `o`, `g`); libdbus guarantees valid UTF-8.
    private static func text(_ iterator: UnsafeMutablePointer<DBusMessageIter>) -> String {
        basic(iterator).str.map { String(cString: $0) } ?? ""
    }
}
