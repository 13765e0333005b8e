/// Shortcuts for the shapes this project uses most: `a{sv}` dictionaries and loosely typed reads.
extension DBusValue {
    /// An `a{sv}` dictionary: keys sorted (so output is deterministic), each value wrapped in a variant.
    public static func vardict(_ dictionary: [String: DBusValue]) -> DBusValue {
        let entries = dictionary.sorted { $0.key < $1.key }.map { key, value in
            DBusDictEntry(key: .string(key), value: .variant(value))
        }
        return .dictionary(keySignature: "s", valueSignature: "v", entries)
    }

    /// The contents of an `a{sv}` dictionary with each variant unwrapped one level; nil for any other type.
    public var vardict: [String: DBusValue]? {
        guard case .dictionary("s", "v", let entries) = self else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard case .string(let key) = entry.key else { return nil }
            if case .variant(let inner) = entry.value {
                result[key] = inner
            } else {
                result[key] = entry.value
            }
        }
        return result
    }

    /// The value with all enclosing variants removed.
    public var unwrapped: DBusValue {
        var value = self
        while case .variant(let inner) = value { value = inner }
        return value
    }

    /// The text of a string (`s`), looking through variants.
    public var string: String? {
        if case .string(let text) = unwrapped { return text }
        return nil
    }

    /// The truth value of a boolean (`b`), looking through variants.
    public var bool: Bool? {
        if case .boolean(let flag) = unwrapped { return flag }
        return nil
    }

    /// The number of a double (`d`) only, looking through variants.
    public var double: Double? {
        if case .double(let number) = unwrapped { return number }
        return nil
    }

    /// Any integer type (`y n q i u x t`) as Int64, looking through variants; nil if it does not fit.
    public var integer: Int64? {
        switch unwrapped {
        case .byte(let number): Int64(number)
        case .int16(let number): Int64(number)
        case .uint16(let number): Int64(number)
        case .int32(let number): Int64(number)
        case .uint32(let number): Int64(number)
        case .int64(let number): number
        case .uint64(let number): Int64(exactly: number)
        default: nil
        }
    }
}
