import Testing
@testable import ActivityModel

/// One timer for all activities: the next moment anything shown could change.
@Suite(.timeLimit(.minutes(2))) struct DeadlineTests {
    @Test(arguments: [
        ("{elapsed|m:ss}", true, 10.5, 11.0),          // seconds tick every second
        ("{elapsed|h:mm}", true, 10.5, 60.0),          // minutes tick on the minute of the value
        ("{elapsed|h:mm}", true, 60.0, 120.0),
        ("{remaining|h:mm}", true, 10.5, 60.0),        // 2:00 left shows until 1:59 left
        ("{remaining|m:ss}", true, 0.25, 1.0),
        ("{elapsed|m:ss}", false, 10.5, 60.0),         // no seconds shown: minute steps
        ("{elapsed}", false, 61, 120.0),
        ("{now|clock}", true, 10, 60.0),               // wall clock on the wall minute
        ("{goal} {attr.length}", true, 10, nil),       // nothing live: no wake-up
    ] as [(String, Bool, Double, Double?)])
    func granularity(template: String, showSeconds: Bool, at offset: Double, next: Double?) throws {
        let (registry, _) = try probeRegistry(body: template)
        let deadline = registry.nextDeadline(after: t0 + offset, timeZoneOffset: 0, style: RenderStyle(showSeconds: showSeconds))
        #expect(deadline == next.map { t0 + $0 })
    }

    @Test func wallMinuteFollowsTheTimeZone() throws {
        let (registry, _) = try probeRegistry(body: "{now|clock}")
        // Half-hour zone: the local minute still starts on a UTC minute.
        #expect(registry.nextDeadline(after: t0 + 10, timeZoneOffset: 19_800) == t0 + 60)
    }

    @Test func progressPercentTicksWhenTheWholePercentChanges() throws {
        let (registry, _) = try probeRegistry(body: "static", length: 1000, progress: ["timer"])
        #expect(registry.nextDeadline(after: t0 + 5, timeZoneOffset: 0) == t0 + 10)
        #expect(registry.nextDeadline(after: t0 + 10, timeZoneOffset: 0) == t0 + 20)
    }

    @Test func elapsedMinutesChangeOnTheMinuteSinceTheStart() throws {
        var registry = shippedRegistry()
        _ = try registry.start(kind: "fasting", attributes: ["start-time": .double(t0 - 30)], state: [:], now: t0)
        let noSeconds = RenderStyle(showSeconds: false)
        #expect(registry.nextDeadline(after: t0, timeZoneOffset: 0, style: noSeconds) == t0 + 30)
        #expect(registry.nextDeadline(after: t0 + 30, timeZoneOffset: 0, style: noSeconds) == t0 + 90)
        #expect(registry.nextDeadline(after: t0, timeZoneOffset: 0) == t0 + 30, "the shipped fasting card shows no seconds")
    }

    /// Without seconds (GNOME's cards) a bar's whole percent waits for the texts' next change
    /// when that comes within a minute, so the card moves once, on its minute (issue 29).
    @Test func withoutSecondsTheBarWaitsForTheTextsMinute() throws {
        let noSeconds = RenderStyle(showSeconds: false)
        // 600 s: a whole percent every 6 s; the h:mm text flips each minute.
        var (registry, id) = try probeRegistry(body: "{elapsed|h:mm}", length: 600, progress: ["timer"])
        #expect(registry.nextDeadline(after: t0, timeZoneOffset: 0) == t0 + 6, "with seconds, the bar's own percent")
        #expect(registry.nextDeadline(after: t0, timeZoneOffset: 0, style: noSeconds) == t0 + 60)
        #expect(registry.nextDeadline(after: t0 + 60, timeZoneOffset: 0, style: noSeconds) == t0 + 120)
        // The render at the minute shows the bar as of then: 10 % after 60 s of 600.
        #expect(try registry.render(id: id.rawValue, now: t0 + 60, timeZoneOffset: 0, style: noSeconds).progressPercent == 10)

        // A shipped Pomodoro: a percent every 15 s, the card's minutes once a minute.
        registry = shippedRegistry()
        _ = try registry.start(kind: "focus", attributes: ["session-type": .string("Pomodoro")], state: [:], now: t0)
        let minute = try #require(registry.nextDeadline(after: t0, timeZoneOffset: 0, style: noSeconds))
        #expect(minute > t0 + 15 && minute <= t0 + 60, "the card's next change is its minute, not the next percent")
    }

    /// A bar whose texts do not change within a minute of its next percent moves on its own.
    @Test func withoutSecondsABarWithStillTextsMovesOnItsOwn() throws {
        let noSeconds = RenderStyle(showSeconds: false)
        let (still, _) = try probeRegistry(body: "Reading", length: 7200, progress: ["timer"])
        #expect(still.nextDeadline(after: t0, timeZoneOffset: 0, style: noSeconds) == t0 + 72, "1 % of 2 h")
        // Ten days: a percent every 2.4 h, the texts each minute: the texts come first.
        let (long, _) = try probeRegistry(body: "{elapsed|h:mm}", length: 864_000, progress: ["timer"])
        #expect(long.nextDeadline(after: t0, timeZoneOffset: 0, style: noSeconds) == t0 + 60)
    }

    @Test func nothingLiveMeansNoWakeUps() throws {
        var registry = shippedRegistry()
        #expect(registry.nextDeadline(after: t0, timeZoneOffset: 0) == nil)
        let (id, _) = try registry.start(kind: "focus", attributes: [:], state: [:], now: t0)
        _ = try registry.end(id: id.rawValue, options: EndOptions(dismissal: "immediate"), now: t0 + 1)
        #expect(registry.nextDeadline(after: t0 + 1, timeZoneOffset: 0) == nil)
    }

    @Test func pausedTimersDoNotTick() throws {
        var (registry, id) = try probeRegistry(body: "{elapsed|m:ss}")
        _ = try registry.pause(id: id.rawValue, now: t0 + 5)
        #expect(registry.nextDeadline(after: t0 + 5, timeZoneOffset: 0) == nil)
        _ = try registry.resume(id: id.rawValue, now: t0 + 100.5)
        #expect(registry.nextDeadline(after: t0 + 100.5, timeZoneOffset: 0) == t0 + 101.5)
    }

    @Test func staleAtPhaseAndTimerEndAreDeadlines() throws {
        var registry = shippedRegistry()
        let (generic, _) = try registry.start(kind: "generic", attributes: [:], state: [:], options: .init(staleAt: t0 + 42), now: t0)
        #expect(registry.nextDeadline(after: t0, timeZoneOffset: 0) == t0 + 42)
        _ = registry.tick(now: t0 + 42, timeZoneOffset: 0)
        #expect(registry.nextDeadline(after: t0 + 42, timeZoneOffset: 0) == nil)
        _ = try registry.end(id: generic.rawValue, options: EndOptions(dismissal: "immediate"), now: t0 + 42)

        _ = try registry.start(kind: "fasting", attributes: ["fasting-hours": .int(16), "start-time": .double(t0 - 16 * 3600 + 10)],
                               state: [:], now: t0)
        // The phase boundary (and goal) at t0 + 10 comes before the next minute of the card.
        #expect(registry.nextDeadline(after: t0, timeZoneOffset: 0, style: RenderStyle(showSeconds: false)) == t0 + 10)
    }

    @Test func ticksReportRenderedOnlyWhenTextChanges() throws {
        var (registry, id) = try probeRegistry(body: "{elapsed|h:mm}")
        #expect(registry.tick(now: t0 + 1, timeZoneOffset: 0) == [.rendered(id)])
        #expect(registry.tick(now: t0 + 30, timeZoneOffset: 0).isEmpty)
        #expect(registry.tick(now: t0 + 60, timeZoneOffset: 0) == [.rendered(id)])
        #expect(registry.tick(now: t0 + 61, timeZoneOffset: 0).isEmpty)
    }
}
