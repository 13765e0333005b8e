import ActivityModel
import DBus
import Push

/// Turns the D-Bus values clients send into the model's values and back: integers of any
/// D-Bus type become integers, `d` numbers, `s` strings, `b` booleans; anything else is
/// refused with a message naming the key and what was expected.
enum ValueConversion {
    /// Converts an `a{sv}` of attributes or state (`what` is "attributes" or "state").
    static func modelValues(_ dict: [String: DBusValue], what: String) throws(DBusError) -> [String: Value] {
        var result: [String: Value] = [:]
        for (key, raw) in dict {
            let value = raw.unwrapped
            if let problem = BusText.problem(key, role: "\(what) key \(Quoted.text(key))") { throw .invalidArgs(problem) }
            switch value {
            case .string(let s):
                if let problem = BusText.problem(s, role: "\(what) key \(Quoted.text(key))") { throw .invalidArgs(problem) }
                result[key] = .string(s)
            case .boolean(let b): result[key] = .bool(b)
            case .double(let d):
                guard d.isFinite else {
                    throw .invalidArgs("\(what) key \(Quoted.text(key)): expected a finite number, got double \(d)")
                }
                result[key] = .double(d)
            default:
                if let i = value.integer {
                    result[key] = .int(i)
                } else {
                    throw .invalidArgs("\(what) key \(Quoted.text(key)): expected a string, number or boolean, got \(value.typeDescription)")
                }
            }
        }
        return result
    }

    /// The D-Bus form of a model value: `s`, `x`, `d` or `b`.
    static func dbusValue(_ value: Value) -> DBusValue {
        switch value {
        case .string(let s): return .string(s)
        case .int(let i): return .int64(i)
        case .double(let d): return .double(d)
        case .bool(let b): return .boolean(b)
        }
    }

    /// An `a{sv}` of model values.
    static func vardict(_ values: [String: Value]) -> DBusValue {
        .vardict(values.mapValues(dbusValue))
    }
}

/// Reads a method's `options` a{sv}: each key has one expected type, and an unknown key or a
/// wrong type is refused with a message that lists what is accepted.
struct OptionReader {
    let method: String
    let options: [String: DBusValue]

    /// Refuses keys outside `known`.
    init(method: String, options: [String: DBusValue], known: [String]) throws(DBusError) {
        self.method = method
        self.options = options
        for key in options.keys.sorted() where !known.contains(key) {
            throw .invalidArgs("\(method) option \(Quoted.text(key)) is unknown; known options: \(known.joined(separator: ", "))")
        }
    }

    func string(_ key: String) throws(DBusError) -> String? {
        guard let raw = options[key] else { return nil }
        guard let s = raw.unwrapped.string else {
            throw .invalidArgs("\(method) option \(Quoted.text(key)): expected a string, got \(raw.unwrapped.typeDescription)")
        }
        if let problem = BusText.problem(s, role: "\(method) option \(Quoted.text(key))") { throw .invalidArgs(problem) }
        return s
    }

    /// A boolean (`b`).
    func flag(_ key: String) throws(DBusError) -> Bool? {
        guard let raw = options[key] else { return nil }
        guard case .boolean(let on) = raw.unwrapped else {
            throw .invalidArgs("\(method) option \(Quoted.text(key)): expected a boolean, got \(raw.unwrapped.typeDescription)")
        }
        return on
    }

    /// A number given as any integer type or a double.
    func number(_ key: String) throws(DBusError) -> Double? {
        guard let raw = options[key] else { return nil }
        let value = raw.unwrapped
        if let i = value.integer { return Double(i) }
        if let d = value.double, d.isFinite { return d }
        throw .invalidArgs("\(method) option \(Quoted.text(key)): expected a number, got \(value.typeDescription)")
    }

    /// Unix seconds, given as any integer type or a double; must be positive.
    func unixTime(_ key: String) throws(DBusError) -> Double? {
        guard let raw = options[key] else { return nil }
        let value = raw.unwrapped
        let seconds: Double
        if let i = value.integer { seconds = Double(i) }
        else if let d = value.double, d.isFinite { seconds = d }
        else { throw .invalidArgs("\(method) option \(Quoted.text(key)): expected unix seconds (an integer), got \(value.typeDescription)") }
        guard seconds > 0, InputLimits.isTime(seconds) else {
            throw .invalidArgs("\(method) option \(Quoted.text(key)): expected unix seconds after 1970 and before 10000 "
                               + "(1 to 253402300799), got \(value.typeDescription)")
        }
        return seconds
    }
}

extension OptionReader {
    /// Start's `push-type` (only `token`) and `push-channel` (a channel id).
    func pushOptions() throws(DBusError) -> (type: String?, channel: String?) {
        let type = try string("push-type")
        if let type, type != "token" {
            throw .invalidArgs("\(method) option \"push-type\": expected \"token\", got string \"\(type)\"")
        }
        let channel = try string("push-channel")
        if let channel, !PushToken.isValidChannel(channel) {
            throw .invalidArgs("\(method) option \"push-channel\": expected 1 to 64 of [A-Za-z0-9_.-], got string \"\(channel)\"")
        }
        return (type, channel)
    }
}
