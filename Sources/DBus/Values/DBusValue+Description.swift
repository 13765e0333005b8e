/// Human-readable descriptions of values, for error messages such as
/// `expected a number from 0 to 1, got string "abc"`.
extension DBusValue {
    /// The type name and a short rendering of the value, e.g. `int32 5` or `array of s`.
    public var typeDescription: String {
        switch self {
        case .byte(let number): "byte \(number)"
        case .boolean(let flag): "boolean \(flag)"
        case .int16(let number): "int16 \(number)"
        case .uint16(let number): "uint16 \(number)"
        case .int32(let number): "int32 \(number)"
        case .uint32(let number): "uint32 \(number)"
        case .int64(let number): "int64 \(number)"
        case .uint64(let number): "uint64 \(number)"
        case .double(let number): "double \(number)"
        case .string(let text): "string \(Self.quoted(text))"
        case .objectPath(let path): "object path \(Self.quoted(path))"
        case .signature(let signature): "signature \(Self.quoted(signature))"
        case .variant(let inner): "variant holding \(inner.typeDescription)"
        case .array(let element, _): "array of \(element)"
        case .dictionary(let key, let value, _): "dictionary a{\(key)\(value)}"
        case .structure: "struct \(signature)"
        }
    }

    /// A quoted, escaped and (past 64 characters) shortened rendering of client text.
    private static func quoted(_ text: String) -> String {
        let limit = 64
        let shown = text.count > limit ? String(text.prefix(limit)) + "…" : text
        var escaped = ""
        for character in shown {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            case "\0": escaped += "\\0"
            default: escaped.append(character)
            }
        }
        return "\"" + escaped + "\""
    }
}
