/// The type a kind declares for a key. `time` is unix seconds (integer or number) and may default to "now".
public enum ValueType: String, Decodable, Sendable, CaseIterable {
    case string, integer, number, boolean, time
}

/// A declared attribute or state key: its type, default, allowed values or range, and the
/// other attributes a chosen value implies (fasting `protocol` "16:8" implies `fasting-hours` 16).
public struct KeySpec: Sendable, Equatable {
    /// A default: a fixed value, or the moment of Start.
    public enum Default: Sendable, Equatable {
        case value(Value)
        case now
    }

    public let name: String
    public let type: ValueType
    public let required: Bool
    public let defaultValue: Default?
    public let allowed: [Value]?
    public let minimum: Double?
    public let maximum: Double?
    /// Keyed by the chosen value's text: the attributes it implies.
    public let derived: [String: [String: Value]]

    /// What a value of this key must look like, as messages say it: `a number from 0 to 1`.
    public var expectation: String {
        if let allowed {
            let listed = allowed.map { value -> String in
                if case .string(let text) = value { return "\"\(text)\"" }
                return value.displayText
            }
            return "one of \(listed.joined(separator: ", "))"
        }
        let noun: String
        switch type {
        case .string: return "a string"
        case .boolean: return "a boolean"
        case .integer: noun = "an integer"
        case .number: noun = "a number"
        case .time: noun = "a time in unix seconds"
        }
        switch (minimum, maximum) {
        case let (low?, high?):
            return "\(noun) from \(Value.plainNumber(low)) to \(Value.plainNumber(high))"
        case let (low?, nil): return "\(noun) of at least \(Value.plainNumber(low))"
        case let (nil, high?): return "\(noun) of at most \(Value.plainNumber(high))"
        case (nil, nil): return noun
        }
    }

    /// Checks `value` against the declaration and returns it normalised (an integral number
    /// given for an integer key becomes an integer). `role` names the key in the message,
    /// e.g. `state key "progress"`.
    /// The message is made only for a refusal (an Update's keys are accepted on every call).
    func accept(_ value: Value, role: @autoclosure () -> String) throws(ActivityError) -> Value {
        var refusal: ActivityError { .invalidArgument("\(role()): expected \(expectation), got \(value.typeDescription)") }
        let normalised: Value
        switch (type, value) {
        case (.string, .string), (.boolean, .bool), (.integer, .int):
            normalised = value
        case (.integer, .double(let number)):
            guard number.isFinite, number.rounded() == number, abs(number) < 9e15 else { throw refusal }
            normalised = .int(Int64(number))
        case (.number, .int), (.time, .int):
            normalised = value
        case (.number, .double(let number)), (.time, .double(let number)):
            guard number.isFinite else { throw refusal }
            normalised = value
        default:
            throw refusal
        }
        if type == .time, let time = normalised.number, !InputLimits.isTime(time) {
            throw ActivityError.invalidArgument("\(role()): expected \(InputLimits.timeRangeText), got \(value.typeDescription)")
        }
        if let number = normalised.number {
            if let minimum, number < minimum { throw refusal }
            if let maximum, number > maximum { throw refusal }
        }
        if let allowed, !allowed.contains(where: { Self.same($0, normalised) }) {
            throw refusal
        }
        return normalised
    }

    /// Equality that treats `16` and `16.0` as the same number.
    static func same(_ lhs: Value, _ rhs: Value) -> Bool {
        if let left = lhs.number, let right = rhs.number { return left == right }
        return lhs == rhs
    }
}
