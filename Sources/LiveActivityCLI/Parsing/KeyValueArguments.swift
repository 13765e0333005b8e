import DBus

/// The type a `key=value` argument is sent as. Chosen, in order, by an explicit suffix
/// (`key:s=…`), by the kind's declaration of that key, or by the look of the value.
public enum ArgumentType: String, CaseIterable, Sendable {
    case string = "s", integer = "i", number = "d", boolean = "b"

    /// The D-Bus value of `text` as this type, or a one-line reason it is not one.
    func convert(_ text: String, key: String) throws(CLIError) -> DBusValue {
        switch self {
        case .string:
            return .string(text)
        case .integer:
            guard let i = Int64(text) else { throw .usage("\(key)=\(text): expected an integer") }
            return .int64(i)
        case .number:
            guard let d = Double(text), d.isFinite else { throw .usage("\(key)=\(text): expected a number") }
            return .double(d)
        case .boolean:
            switch text.lowercased() {
            case "true", "yes", "on", "1": return .boolean(true)
            case "false", "no", "off", "0": return .boolean(false)
            default: throw .usage("\(key)=\(text): expected true or false")
            }
        }
    }

    /// The type a value looks like when nothing declares it: integers, then numbers, then
    /// `true`/`false`, else a string (so `protocol=16:8` stays a string).
    static func guess(_ text: String) -> ArgumentType {
        if Int64(text) != nil { return .integer }
        if let d = Double(text), d.isFinite, text.contains(".") { return .number }
        if text == "true" || text == "false" { return .boolean }
        return .string
    }
}

/// Where a `key=value` goes: static attributes or the dynamic state.
public enum KeyDestination: Sendable {
    case attributes, state
}

/// What the CLI knows of a kind's keys (from the kind files), to type and place arguments.
public protocol KeySchema {
    /// The destination and type the kind declares for `key`, if it declares it.
    func lookup(kind: String, key: String) -> (KeyDestination, ArgumentType)?
}

/// A schema that knows nothing: every key goes to state with a guessed type.
public struct NoSchema: KeySchema {
    public init() {}
    public func lookup(kind: String, key: String) -> (KeyDestination, ArgumentType)? { nil }
}

/// Splits `key=value` arguments into attributes and state.
struct KeyValueArguments {
    var attributes: [String: DBusValue] = [:]
    var state: [String: DBusValue] = [:]

    /// `allowAttributes` is false for update and end, where attributes are fixed.
    init(_ words: [String], kind: String?, schema: KeySchema, allowAttributes: Bool) throws(CLIError) {
        for word in words {
            guard let equals = word.firstIndex(of: "=") else {
                throw .usage("\"\(word)\" is not key=value")
            }
            var key = String(word[..<equals])
            let text = String(word[word.index(after: equals)...])
            var destination: KeyDestination?
            if key.hasPrefix("attr.") { destination = .attributes; key.removeFirst(5) }
            else if key.hasPrefix("state.") { destination = .state; key.removeFirst(6) }
            var explicitType: ArgumentType?
            if let colon = key.lastIndex(of: ":") {
                let suffix = String(key[key.index(after: colon)...])
                guard let type = ArgumentType(rawValue: suffix) else {
                    throw .usage("\(word): unknown type \":\(suffix)\"; use :s, :i, :d or :b")
                }
                explicitType = type
                key = String(key[..<colon])
            }
            guard !key.isEmpty else { throw .usage("\"\(word)\" has an empty key") }
            let declared = kind.flatMap { schema.lookup(kind: $0, key: key) }
            let type = explicitType ?? declared?.1 ?? ArgumentType.guess(text)
            let value = try type.convert(text, key: key)
            let place = destination ?? declared?.0 ?? .state
            if place == .attributes {
                guard allowAttributes else { throw .usage("\(key): attributes are fixed at start; only state can change") }
                attributes[key] = value
            } else {
                state[key] = value
            }
        }
    }
}
