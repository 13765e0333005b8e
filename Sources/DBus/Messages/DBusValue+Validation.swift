/// Checks a value completely before any of it reaches libdbus, which aborts the process on
/// NUL in strings, malformed object paths or signatures, and mismatched container types.
extension DBusValue {
    /// The deepest nesting of containers (variants included) that is accepted.
    static let maximumNesting = 64

    /// Throws `InvalidArgs` naming the first thing that libdbus would refuse.
    func validate(depth: Int = 0) throws(DBusError) {
        guard depth <= Self.maximumNesting else {
            throw .invalidArgs("value nested more than \(Self.maximumNesting) levels deep")
        }
        switch self {
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double:
            return
        case .string(let text):
            guard CString.isValidUTF8(text) else { throw .invalidArgs("string contains a NUL character") }
        case .objectPath(let path):
            guard CString.isValidObjectPath(path) else { throw .invalidArgs("invalid object path \"\(path)\"") }
        case .signature(let signature):
            guard DBusSignature.isValid(signature) else { throw .invalidArgs("invalid signature \"\(signature)\"") }
        case .variant(let inner):
            // A basic value's signature is one fixed letter; only containers need libdbus's check.
            guard inner.isBasic || DBusSignature.isSingleCompleteType(inner.signature) else {
                throw .invalidArgs("variant holds an invalid type \"\(inner.signature)\"")
            }
            try inner.validate(depth: depth + 1)
        case .array(let elementSignature, let elements):
            guard DBusSignature.isSingleCompleteType(elementSignature) else {
                throw .invalidArgs("invalid array element signature \"\(elementSignature)\"")
            }
            for element in elements {
                guard element.signature == elementSignature else {
                    throw .invalidArgs("array of \(elementSignature) holds \(element.typeDescription)")
                }
                try element.validate(depth: depth + 1)
            }
        case .dictionary(let keySignature, let valueSignature, let entries):
            guard DBusSignature.isBasicType(keySignature), keySignature != "h" else {
                throw .invalidArgs("dictionary key type \"\(keySignature)\" is not a basic type")
            }
            guard DBusSignature.isSingleCompleteType(valueSignature) else {
                throw .invalidArgs("invalid dictionary value signature \"\(valueSignature)\"")
            }
            for entry in entries {
                guard entry.key.signature == keySignature, entry.value.signature == valueSignature else {
                    throw .invalidArgs("dictionary a{\(keySignature)\(valueSignature)} holds an entry "
                                       + "\(entry.key.typeDescription) → \(entry.value.typeDescription)")
                }
                try entry.key.validate(depth: depth + 2)
                try entry.value.validate(depth: depth + 2)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw .invalidArgs("a struct needs at least one field") }
            for field in fields { try field.validate(depth: depth + 1) }
        }
    }
}

extension DBusValue {
    /// Whether this is a basic (non-container) value, whose signature is always valid.
    var isBasic: Bool {
        switch self {
        case .variant, .array, .dictionary, .structure: false
        default: true
        }
    }
}
