import CDBus

/// Writing arguments with `DBusMessageIter`: values are validated in full first, so a
/// refused value leaves the message exactly as it was.
extension DBusMessage {
    /// Appends `values` as arguments; throws `InvalidArgs` (message unchanged) for a value libdbus would refuse.
    public func append(_ values: [DBusValue]) throws(DBusError) {
        guard !isSealed else { throw .failed("a message cannot be changed after it was sent or received") }
        for value in values { try value.validate() }
        let combined = signature + values.dbusSignature
        guard DBusSignature.isValid(combined) else {
            throw .invalidArgs("the arguments' signature \"\(combined)\" is too long or too deeply nested")
        }
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(pointer, &iterator)
        for value in values {
            guard MessageWriter.append(value, to: &iterator) else {
                throw .noMemory("out of memory while appending arguments")
            }
        }
    }
}

/// Recursive writer over `dbus_message_iter_append_basic` / `open_container` / `close_container`.
/// Values must have been validated.
enum MessageWriter {
    /// Appends one value; false only when libdbus runs out of memory.
    static func append(_ value: DBusValue, to iterator: UnsafeMutablePointer<DBusMessageIter>) -> Bool {
        switch value {
        case .byte(let number): return appendBasic(cdbus_type_byte, to: iterator) { $0.byt = number }
        case .boolean(let flag): return appendBasic(cdbus_type_boolean, to: iterator) { $0.bool_val = flag ? 1 : 0 }
        case .int16(let number): return appendBasic(cdbus_type_int16, to: iterator) { $0.i16 = number }
        case .uint16(let number): return appendBasic(cdbus_type_uint16, to: iterator) { $0.u16 = number }
        case .int32(let number): return appendBasic(cdbus_type_int32, to: iterator) { $0.i32 = number }
        case .uint32(let number): return appendBasic(cdbus_type_uint32, to: iterator) { $0.u32 = number }
        case .int64(let number): return appendBasic(cdbus_type_int64, to: iterator) { $0.i64 = dbus_int64_t(number) }
        case .uint64(let number): return appendBasic(cdbus_type_uint64, to: iterator) { $0.u64 = dbus_uint64_t(number) }
        case .double(let number): return appendBasic(cdbus_type_double, to: iterator) { $0.dbl = number }
        case .string(let text): return appendText(text, type: cdbus_type_string, to: iterator)
        case .objectPath(let path): return appendText(path, type: cdbus_type_object_path, to: iterator)
        case .signature(let signature): return appendText(signature, type: cdbus_type_signature, to: iterator)
        case .variant(let inner):
            return appendContainer(cdbus_type_variant, signature: inner.signature, to: iterator) { sub in
                append(inner, to: sub)
            }
        case .array(let elementSignature, let elements):
            return appendContainer(cdbus_type_array, signature: elementSignature, to: iterator) { sub in
                elements.allSatisfy { append($0, to: sub) }
            }
        case .dictionary(let keySignature, let valueSignature, let entries):
            let entrySignature = "{" + keySignature + valueSignature + "}"
            return appendContainer(cdbus_type_array, signature: entrySignature, to: iterator) { sub in
                entries.allSatisfy { entry in
                    appendContainer(cdbus_type_dict_entry, signature: nil, to: sub) { pair in
                        append(entry.key, to: pair) && append(entry.value, to: pair)
                    }
                }
            }
        case .structure(let fields):
            return appendContainer(cdbus_type_struct, signature: nil, to: iterator) { sub in
                fields.allSatisfy { append($0, to: sub) }
            }
        }
    }

    /// `dbus_message_iter_append_basic` for fixed-size types, through an 8-byte `DBusBasicValue`.
    private static func appendBasic(_ type: Int32, to iterator: UnsafeMutablePointer<DBusMessageIter>,
                                    _ fill: (inout DBusBasicValue) -> Void) -> Bool {
        var storage = DBusBasicValue()
        fill(&storage)
        return dbus_message_iter_append_basic(iterator, type, &storage) != 0
    }

    /// `dbus_message_iter_append_basic` for string-like types, which take a `const char **`.
    private static func appendText(_ text: String, type: Int32,
                                   to iterator: UnsafeMutablePointer<DBusMessageIter>) -> Bool {
        text.withCString { cText in
            var reference: UnsafePointer<CChar>? = cText
            return dbus_message_iter_append_basic(iterator, type, &reference) != 0
        }
    }

    /// `dbus_message_iter_open_container`, `body`, then close (or abandon when something failed).
    private static func appendContainer(_ type: Int32, signature: String?,
                                        to iterator: UnsafeMutablePointer<DBusMessageIter>,
                                        _ body: (UnsafeMutablePointer<DBusMessageIter>) -> Bool) -> Bool {
        var sub = DBusMessageIter()
        let opened = withOptionalCString(signature) { dbus_message_iter_open_container(iterator, type, $0, &sub) }
        guard opened != 0 else { return false }
        guard body(&sub) else {
            dbus_message_iter_abandon_container(iterator, &sub)
            return false
        }
        return dbus_message_iter_close_container(iterator, &sub) != 0
    }
}
