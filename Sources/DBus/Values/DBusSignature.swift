import CDBus

/// Type signatures (`sa{sv}`): validation and splitting into complete types, as libdbus sees them.
public enum DBusSignature {
    /// Whether `signature` is a valid (possibly empty) sequence of complete types.
    public static func isValid(_ signature: String) -> Bool {
        CString.withoutNUL(signature) { dbus_signature_validate($0, nil) != 0 }
    }

    /// Whether `signature` is exactly one complete type, e.g. `a{sv}` but not `ss`.
    public static func isSingleCompleteType(_ signature: String) -> Bool {
        CString.withoutNUL(signature) { dbus_signature_validate_single($0, nil) != 0 }
    }

    /// Whether `signature` is one basic type (the only types allowed as dictionary keys).
    public static func isBasicType(_ signature: String) -> Bool {
        // Bytes, not `String.contains(String)`: that substring search is costly for one letter.
        guard signature.utf8.count == 1, let letter = signature.utf8.first else { return false }
        return "ybnqiuxtdsogh".utf8.contains(letter)
    }

    /// The complete types of `signature` in order (`sa{sv}` → `s`, `a{sv}`); nil if it is invalid.
    public static func split(_ signature: String) -> [String]? {
        guard isValid(signature) else { return nil }
        guard !signature.isEmpty else { return [] }
        return signature.withCString { pointer in
            var iterator = DBusSignatureIter()
            dbus_signature_iter_init(&iterator, pointer)
            var types: [String] = []
            repeat {
                guard let part = dbus_signature_iter_get_signature(&iterator) else { return nil }
                types.append(String(cString: part))
                dbus_free(part)
            } while dbus_signature_iter_next(&iterator) != 0
            return types
        }
    }
}
