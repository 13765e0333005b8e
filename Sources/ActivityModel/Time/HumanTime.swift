/// Reads a moment as a person types it (`20:00`, `-3h`, `yesterday 20:00`, ISO 8601, unix
/// seconds) into unix seconds. It exists so every time-typed key and option of the CLI
/// accepts the same forms; the bus keeps unix seconds. Pure: the clock and the local time
/// zone (a UTC-offset function) are injected, so tests can pin both, DST included.
public struct HumanTime: Sendable {
    /// Which day a bare `HH:MM` means: the latest one not in the future (a start time), or
    /// the next one not in the past (an end, a stale or dismissal time).
    public enum Anchor: Sendable {
        case past, future
    }

    /// Every accepted form, as errors name them.
    public static let acceptedForms =
        "unix seconds (1764612000), now, +25m or -3h (from now; s, m, h, d, combinable: -1h30m), "
        + "HH:MM or HH:MM:SS, today/yesterday/tomorrow HH:MM, or ISO 8601 (2026-12-01T20:00, "
        + "2026-12-01 20:00:00, 2026-12-01T19:00Z, 2026-12-01T20:00+01:00, 2026-12-01)"

    /// Unix seconds now.
    public let now: Int64
    /// Seconds east of UTC of local time at a unix instant (e.g. `SystemTimeZone.utcOffset`).
    public let utcOffset: @Sendable (Int64) -> Int64

    public init(now: Int64, utcOffset: @escaping @Sendable (Int64) -> Int64) {
        self.now = now
        self.utcOffset = utcOffset
    }

    /// The unix seconds `text` names, or nil when it is none of `acceptedForms`.
    public func moment(_ text: String, anchor: Anchor) -> Int64? {
        let trimmed = text.trimmingSpaces
        if trimmed.isEmpty { return nil }
        if trimmed == "now" { return now }
        if let first = trimmed.first, first == "+" || first == "-" {
            guard let offset = Self.duration(String(trimmed.dropFirst())) else { return nil }
            let (moved, overflow) = first == "+" ? now.addingReportingOverflow(offset) : now.subtractingReportingOverflow(offset)
            return overflow ? nil : moved
        }
        if let seconds = Int64(trimmed) { return seconds }
        let words = trimmed.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if words.count == 2, let shift = ["yesterday": -1, "today": 0, "tomorrow": 1][words[0].lowercased()],
           let clock = Self.clock(words[1]) {
            return instant(localSeconds: (today + Int64(shift)) * 86_400 + clock)
        }
        if words.count == 1, let clock = Self.clock(trimmed) {
            let candidate = instant(localSeconds: today * 86_400 + clock)
            switch anchor {
            case .past where candidate > now: return instant(localSeconds: (today - 1) * 86_400 + clock)
            case .future where candidate < now: return instant(localSeconds: (today + 1) * 86_400 + clock)
            default: return candidate
            }
        }
        guard let iso = ISODateTime(trimmed) else { return nil }
        let local = iso.days * 86_400 + iso.secondOfDay
        if let offset = iso.utcOffset { return local - offset }
        return instant(localSeconds: local)
    }

    /// What is wrong with `text` when it has the shape of a clock time (`HH:MM`, `HH:MM:SS`,
    /// maybe after today/yesterday/tomorrow) but a part out of range, in the words of the
    /// person who typed it: "the hour 25 is out of range (0 to 23)"; nil otherwise.
    public static func clockProblem(_ text: String) -> String? {
        guard let last = text.trimmingSpaces.split(separator: " ").last else { return nil }
        let parts = last.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        let names = ["hour", "minute", "second"], limits = [23, 59, 59]
        for (index, part) in parts.enumerated() {
            if let value = Int(part), value > limits[index] {
                return "the \(names[index]) \(value) is out of range (0 to \(limits[index]))"
            }
        }
        return nil
    }

    /// Seconds from `90`, `90s`, `25m`, `2h`, `1d` or `1h30m` (an optional leading `+`).
    public static func duration(_ text: String) -> Int64? {
        var body = Substring(text.trimmingSpaces)
        if body.first == "+" { body = body.dropFirst() }
        if let plain = Int64(body), plain >= 0 { return plain }
        var total: Int64 = 0
        var digits = ""
        for character in body {
            if let digit = character.wholeNumberValue, character.isASCII { digits.append(String(digit)); continue }
            guard let amount = Int64(digits), digits.count <= 9,
                  let unit = ["s": 1, "m": 60, "h": 3_600, "d": 86_400][character] else { return nil }
            let (part, tooLarge) = amount.multipliedReportingOverflow(by: Int64(unit))
            let (sum, tooMany) = total.addingReportingOverflow(part)
            guard !tooLarge, !tooMany else { return nil }
            total = sum
            digits = ""
        }
        return digits.isEmpty && !body.isEmpty ? total : nil
    }

    /// Today's local date, in days since 1970-01-01.
    private var today: Int64 { floorDivide(now + utcOffset(now), 86_400) }

    /// The instant a local wall-clock time names. In a DST gap (a time that does not exist)
    /// it moves forward by the gap, like a clock set forward; in an overlap (a time that
    /// happens twice) it is the earlier of the two.
    func instant(localSeconds local: Int64) -> Int64 {
        let before = utcOffset(local - 86_400), after = utcOffset(local + 86_400)
        let fits = [before, after].filter { utcOffset(local - $0) == $0 }.map { local - $0 }
        return fits.min() ?? local - before
    }

    /// Seconds into the day from `HH:MM` or `HH:MM:SS` (24-hour clock).
    static func clock(_ text: String) -> Int64? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) }),
              let hour = Int64(parts[0]), let minute = Int64(parts[1]), hour < 24, minute < 60 else { return nil }
        let second = parts.count == 3 ? Int64(parts[2]) ?? 60 : 0
        guard second < 60 else { return nil }
        return hour * 3_600 + minute * 60 + second
    }
}

func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let quotient = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
