/// The identifier of an activity: 1 to 64 of `[A-Za-z0-9_]`, so it can be a D-Bus object path element.
public struct ActivityID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Validates `rawValue`; a wrong shape is an `invalidArgument` naming the rule.
    public init(_ rawValue: String) throws(ActivityError) {
        guard ActivityID.isValid(rawValue) else {
            throw .invalidArgument(
                "id \(Quoted.text(rawValue)): expected 1 to 64 letters, digits or underscores")
        }
        self.rawValue = rawValue
    }

    /// Whether `text` is a well-formed id.
    public static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (1...64).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
        }
    }

    public var description: String { rawValue }

    public static func < (lhs: ActivityID, rhs: ActivityID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do throws(ActivityError) {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Makes short unique ids deterministically from a seed and a counter (the daemon seeds it randomly).
///
/// Ids are 8 characters of an unambiguous lowercase alphabet (no `l`, `o`, `0`, `1`).
public struct ActivityIDGenerator: Codable, Equatable, Sendable {
    public var seed: UInt64
    public var counter: UInt64

    public init(seed: UInt64, counter: UInt64 = 0) {
        self.seed = seed
        self.counter = counter
    }

    private static let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")

    /// The next id; advances the counter.
    public mutating func next() -> ActivityID {
        counter &+= 1
        var mixed = Self.splitMix(seed &+ counter &* 0x9E37_79B9_7F4A_7C15)
        var text = ""
        for _ in 0..<8 {
            text.append(Self.alphabet[Int(mixed & 31)])
            mixed >>= 5
        }
        return ActivityID(generated: text)
    }

    private static func splitMix(_ input: UInt64) -> UInt64 {
        var value = input &+ 0x9E37_79B9_7F4A_7C15
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

extension ActivityID {
    /// For generated ids, whose alphabet only holds id characters.
    fileprivate init(generated text: String) {
        self.rawValue = text
    }
}
