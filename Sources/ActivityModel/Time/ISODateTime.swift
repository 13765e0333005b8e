/// An ISO 8601 date or date-time as `HumanTime` accepts it: `2026-12-01`, `2026-12-01T20:00`,
/// `2026-12-01 20:00:05.250`, with an optional `Z`, `+01:00`, `+0100` or `+01`. Split out so
/// the calendar arithmetic (days from a civil date) lives in one place.
struct ISODateTime {
    /// Days since 1970-01-01 of the date.
    let days: Int64
    /// Seconds into that day (fractions dropped).
    let secondOfDay: Int64
    /// Seconds east of UTC when the text gives an offset; nil means local time.
    let utcOffset: Int64?

    init?(_ text: String) {
        let characters = Array(text)
        guard characters.count >= 10, characters[4] == "-", characters[7] == "-",
              let year = Self.number(characters[0..<4]), let month = Self.number(characters[5..<7]),
              let day = Self.number(characters[8..<10]),
              (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day) else { return nil }
        days = Self.daysFromCivil(year: year, month: month, day: day)
        if characters.count == 10 { secondOfDay = 0; utcOffset = nil; return }
        guard characters[10] == "T" || characters[10] == "t" || characters[10] == " " else { return nil }
        var rest = Array(characters[11...])
        var offset: Int64?
        if rest.last == "Z" || rest.last == "z" {
            offset = 0
            rest.removeLast()
        } else if let sign = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let zone = rest[(sign + 1)...].filter { $0 != ":" }
            guard zone.count == 2 || zone.count == 4, let hours = Self.number(zone.prefix(2)),
                  let minutes = zone.count == 4 ? Self.number(zone.suffix(2)) : 0, hours < 24, minutes < 60 else { return nil }
            offset = (rest[sign] == "-" ? -1 : 1) * (hours * 3_600 + minutes * 60)
            rest.removeSubrange(sign...)
        }
        if let dot = rest.firstIndex(where: { $0 == "." || $0 == "," }) {
            guard rest.count > dot + 1, rest[(dot + 1)...].allSatisfy(\.isASCIIDigit) else { return nil }
            rest.removeSubrange(dot...)
        }
        guard let clock = HumanTime.clock(String(rest)), rest.count >= 4 else { return nil }
        secondOfDay = clock
        utcOffset = offset
    }

    private static func number<S: Sequence>(_ digits: S) -> Int64? where S.Element == Character {
        var value: Int64 = 0
        var count = 0
        for character in digits {
            guard let digit = character.wholeNumberValue, character.isASCII else { return nil }
            value = value * 10 + Int64(digit)
            count += 1
        }
        return count > 0 ? value : nil
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (the era-based method).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
