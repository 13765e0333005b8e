import Testing
@testable import ActivityModel

/// Europe/Berlin's rules (CET, CEST from the last Sunday of March to the last Sunday of
/// October, switching at 01:00 UTC), written out so the table needs no tzdata.
func berlinOffset(_ time: Int64) -> Int64 {
    let day = floorDivide(time, 86_400)
    var year: Int64 = 1970 + day / 366
    while ISODateTime.daysFromCivil(year: year + 1, month: 1, day: 1) <= day { year += 1 }
    func lastSunday(_ month: Int64) -> Int64 {
        let last = ISODateTime.daysFromCivil(year: year, month: month, day: 31)
        return last - ((last + 4) % 7)
    }
    let summer = (lastSunday(3) * 86_400 + 3_600)..<(lastSunday(10) * 86_400 + 3_600)
    return summer.contains(time) ? 7_200 : 3_600
}

@Suite(.timeLimit(.minutes(2)))
struct HumanTimeTests {
    /// 2026-12-01 12:00 in Berlin (11:00 UTC).
    static let noon: Int64 = 1_796_122_800
    static let berlin = HumanTime(now: noon, utcOffset: berlinOffset)

    @Test(arguments: [
        ("1764612000", .past, 1_764_612_000),
        ("now", .past, noon),
        ("+25m", .future, noon + 1_500),
        ("-3h", .past, noon - 10_800),
        ("-1h30m", .past, noon - 5_400),
        ("+90", .future, noon + 90),
        ("20:00", .past, 1_796_065_200),           // yesterday: today's 20:00 is still ahead
        ("20:00", .future, 1_796_151_600),         // today
        ("08:00", .past, 1_796_108_400),           // today: already past
        ("08:00", .future, 1_796_194_800),         // tomorrow
        ("08:00:30", .past, 1_796_108_430),
        ("yesterday 20:00", .future, 1_796_065_200),
        ("Yesterday 20:00", .past, 1_796_065_200),
        ("today 20:00", .past, 1_796_151_600),
        ("tomorrow 08:00", .past, 1_796_194_800),
        ("2026-12-01T01:00:00Z", .past, 1_796_086_800),
        ("2026-12-01T20:00+01:00", .past, 1_796_151_600),
        ("2026-12-01T20:00:00.750+0100", .past, 1_796_151_600),
        ("2026-12-01T21:00+02", .past, 1_796_151_600),
        ("2026-12-01T20:00", .past, 1_796_151_600),  // no offset: Berlin
        ("2026-12-01 20:00:00", .past, 1_796_151_600),
        ("2026-12-01", .past, 1_796_079_600),      // local midnight
        ("2026-07-01T12:00", .past, 1_782_900_000), // summer time
        ("2026-03-29T02:30", .past, 1_774_747_800), // in the spring gap: moved on to 03:30 CEST
        ("2026-10-25T02:30", .past, 1_792_888_200), // happens twice: the first (CEST)
    ] as [(String, HumanTime.Anchor, Int64)])
    func readsEachForm(text: String, anchor: HumanTime.Anchor, expected: Int64) {
        #expect(Self.berlin.moment(text, anchor: anchor) == expected)
    }

    @Test func theDayIsTheLocalDayAcrossDSTChanges() {
        // 2026-03-29 12:00 CEST, the day summer time began: yesterday was still winter time.
        let afterSwitch = HumanTime(now: 1_774_778_400, utcOffset: berlinOffset)
        #expect(afterSwitch.moment("yesterday 20:00", anchor: .past) == 1_774_724_400)
        #expect(afterSwitch.moment("20:00", anchor: .past) == 1_774_724_400)
        #expect(afterSwitch.moment("20:00", anchor: .future) == 1_774_807_200)
        // 2026-03-30 00:30 CEST is still 2026-03-29 in UTC: "yesterday" is the 29th.
        let pastMidnight = HumanTime(now: 1_774_823_400, utcOffset: berlinOffset)
        #expect(pastMidnight.moment("yesterday 20:00", anchor: .past) == 1_774_807_200)
        // 00:30 local: a start at 23:00 was last night.
        let earlyMorning = HumanTime(now: 1_796_081_400, utcOffset: berlinOffset)
        #expect(earlyMorning.moment("23:00", anchor: .past) == 1_796_076_000)
    }

    @Test(arguments: ["", "yesterday", "25:00", "20:60", "2026-02-30", "2026-13-01", "2026-12-01T", "abc",
                      "-3x", "+", "next week", "20:00 yesterday", "2026-12-01T20:00+25:00", "1.5h"])
    func refusesWhatItCannotRead(text: String) {
        #expect(Self.berlin.moment(text, anchor: .past) == nil)
    }

    @Test(arguments: [("90", 90), ("90s", 90), ("+25m", 1_500), ("2h", 7_200), ("1h30m", 5_400), ("1d", 86_400)]
          as [(String, Int64)])
    func durations(text: String, seconds: Int64) {
        #expect(HumanTime.duration(text) == seconds)
    }

    @Test func badDurationsAreNil() {
        for text in ["", "5x", "m", "-5m", "1.5h"] { #expect(HumanTime.duration(text) == nil, "\(text)") }
    }

    @Test func theErrorNamesEveryForm() {
        for form in ["unix seconds", "+25m", "-3h", "HH:MM", "yesterday", "ISO 8601"] {
            #expect(HumanTime.acceptedForms.contains(form), "\(form)")
        }
    }
}
