import DBus

/// Random D-Bus values a hostile or buggy client might send: every type, extremes, empty and
/// huge strings, nested variants and containers. Everything it makes is valid on the wire
/// (the bus would disconnect a client that sent a malformed message, which tests nothing).
struct HostileValues {
    var random: SeededRandom

    /// Keys the daemon knows somewhere (attributes, state or options of some method), so
    /// wrong types reach the real checks rather than the "unknown key" one.
    static let knownKeys = ["title", "body", "progress", "icon", "timer-start", "timer-end", "id", "stale-at",
                            "relevance", "app-name", "alert-title", "alert-body", "alert-sound", "reason",
                            "dismissal", "dismiss-at", "protocol", "fasting-hours", "start-time",
                            "session-type", "minutes"]

    /// A string of one of many shapes: empty, short, markup, unicode, at and over the payload limit, huge.
    mutating func string() -> String {
        switch Int.random(in: 0..<20, using: &random) {
        case 0: return ""
        case 1: return "<b>&amp;</b> & < > \" '"
        case 2: return "é ü 日本 🙂 \u{202E}rtl"
        case 3: return String(repeating: "x", count: 4096)
        case 4: return String(repeating: "y", count: 5000)
        case 5 where random.chance(0.1): return String(repeating: "z", count: 200_000)
        case 6: return "{state.title} {remaining|m:ss} [{x}]"
        case 7: return "%s %n %x \\ \n\t"
        case 8: return random.pick(["16:8", "18:6", "20:4", "OMAD", "23:1", "Pomodoro", "Deep Work", "Flow State",
                                    "completed", "cancelled", "ended", "default", "immediate"])
        default:
            let length = Int.random(in: 1...24, using: &random)
            return String((0..<length).map { _ in random.pick(Array("abcXYZ019_-. /:")) })
        }
    }

    /// An id of one of many shapes; `known` ids (live or ended) are picked often.
    mutating func id(known: [String]) -> String {
        if !known.isEmpty && random.chance(0.45) { return random.pick(known) }
        return random.pick(["", "a", String(repeating: "a", count: 64), String(repeating: "b", count: 65), "with-dash",
                            "é", "a b", "../../etc", "0", "_", "UPPER_lower_09", "id/with/slash", "🙂",
                            String(repeating: "c", count: 10_000), string()])
    }

    /// Any value, at most `depth` containers deep.
    mutating func value(depth: Int = 0) -> DBusValue {
        let containers = depth < 6
        switch Int.random(in: 0..<(containers ? 18 : 13), using: &random) {
        case 0: return .byte(UInt8.random(in: 0...255, using: &random))
        case 1: return .boolean(random.chance(0.5))
        case 2: return .int16(random.pick([Int16.min, -1, 0, 1, Int16.max]))
        case 3: return .uint16(random.pick([0, 1, 25, UInt16.max]))
        case 4: return .int32(random.pick([Int32.min, -1, 0, 1, 16, 25, 3600, Int32.max]))
        case 5: return .uint32(random.pick([0, 1, 16, 90, UInt32.max]))
        case 6: return .int64(random.pick([Int64.min, -1, 0, 1, 1_700_000_000, 4_000_000_000_000, Int64.max]))
        case 7: return .uint64(random.pick([0, 1, UInt64(Int64.max) + 1, UInt64.max]))
        case 8: return .double(random.pick([Double.nan, .infinity, -.infinity, -0.0, 0.5, 1, 1.5, -1, 1e308,
                                            .leastNonzeroMagnitude, 1_700_000_000.5]))
        case 9, 10: return .string(string())
        case 11: return .objectPath(random.pick(["/", "/a", "/io/github/liveactivities/LiveActivities1"]))
        case 12: return .signature(random.pick(["", "s", "a{sv}", "(ii)", "v"]))
        case 13: return nestedVariants(depth: depth)
        case 14: return array(depth: depth)
        case 15: return dictionary(depth: depth)
        case 16: return .structure((0..<Int.random(in: 1...3, using: &random)).map { _ in value(depth: depth + 1) })
        default: return .variant(value(depth: depth + 1))
        }
    }

    /// A basic value inside up to 20 variants (no containers inside, to stay within the wire's depth limit).
    private mutating func nestedVariants(depth: Int) -> DBusValue {
        var inner = value(depth: 6)
        for _ in 0..<Int.random(in: 1...20, using: &random) { inner = .variant(inner) }
        return inner
    }

    /// An array of one element type: strings, integers, doubles or variants.
    private mutating func array(depth: Int) -> DBusValue {
        let count = random.pick([0, 1, 3, 50])
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return .array(elementSignature: "s", (0..<count).map { _ in .string(string()) })
        case 1: return .array(elementSignature: "i", (0..<count).map { _ in .int32(Int32.random(in: -9...9, using: &random)) })
        case 2: return .array(elementSignature: "d", (0..<count).map { _ in .double(Double.random(in: -2...2, using: &random)) })
        default: return .array(elementSignature: "v", (0..<count).map { _ in .variant(value(depth: depth + 1)) })
        }
    }

    /// A dictionary: mostly `a{sv}` (sometimes with known keys), else `a{ss}` or `a{iv}`.
    private mutating func dictionary(depth: Int) -> DBusValue {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return .dictionary(keySignature: "s", valueSignature: "s",
                                   [DBusDictEntry(key: .string(key()), value: .string(string()))])
        case 1: return .dictionary(keySignature: "i", valueSignature: "v",
                                   [DBusDictEntry(key: .int32(7), value: .variant(value(depth: depth + 2)))])
        default: return vardict(depth: depth + 1)
        }
    }

    /// A key: usually one the daemon knows, else a random one.
    mutating func key() -> String {
        random.chance(0.7) ? random.pick(Self.knownKeys) : string()
    }

    /// An `a{sv}` of 0 to 6 entries with hostile values (duplicate keys included).
    mutating func vardict(depth: Int = 0) -> DBusValue {
        let count = random.pick([0, 0, 1, 2, 3, 6])
        let entries = (0..<count).map { _ in DBusDictEntry(key: .string(key()), value: .variant(value(depth: depth + 1))) }
        return .dictionary(keySignature: "s", valueSignature: "v", entries)
    }

    /// An `a{sv}` a well-behaved client might send for `kind`, so activities do get started.
    mutating func plausibleState(kind: String) -> (attributes: DBusValue, state: DBusValue) {
        switch kind {
        case "fasting":
            return (.vardict(["protocol": .string(random.pick(["16:8", "18:6", "20:4", "OMAD"]))]), .vardict([:]))
        case "focus":
            return (.vardict(["minutes": .uint32(UInt32.random(in: 1...90, using: &random))]), .vardict([:]))
        default:
            return (.vardict([:]), .vardict(["title": .string(string()), "progress": .double(Double.random(in: 0...1, using: &random))]))
        }
    }
}
