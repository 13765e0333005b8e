import ActivityModel
import Testing
@testable import LiveActivitiesService

/// A render without seconds (GNOME's cards, the MPRIS player) is kept from tick to tick until
/// it can change, and is never stale: at every second it shows the texts, buttons and status a
/// render made anew shows, and its bar is the one of its minute (a bar waits for the texts'
/// minute, `ActivityRenderer.nextChange`), at most a minute behind.
@Suite(.timeLimit(.minutes(1))) struct StyledRendersTests {
    static let t0 = 1_700_000_000.3
    static let minutes = RenderStyle(showSeconds: false)

    static func pomodoro() throws -> ActivityRegistry {
        var registry = ActivityRegistry(catalog: ServiceTestKinds.catalog, idSeed: 1)
        _ = try registry.start(kind: "focus", attributes: ["session-type": .string("Pomodoro")], state: [:],
                               options: StartOptions(id: "f"), now: t0)
        return registry
    }

    @Test func aPerSecondTickRendersTheMinutesOncePerMinuteAndNeverStale() throws {
        let registry = try Self.pomodoro()
        let renders = StyledRenders()
        let activity = try #require(registry.activity("f"))
        var texts: Set<String> = []
        for second in 0..<180 {
            let now = Self.t0 + Double(second)
            let kept = renders.rendered(activity, style: Self.minutes, now: now, utcOffset: 0, registry: registry)
            var fresh = registry.render(activity, now: now, timeZoneOffset: 0, style: Self.minutes)
            #expect(fresh.progress.map { $0 - kept.progress! } ?? 0 <= 60.0 / 1500, "at +\(second) s the bar is at most a minute behind")
            fresh.progress = kept.progress
            fresh.segments = kept.segments
            #expect(kept == fresh, "at +\(second) s the kept render shows the texts one made anew shows")
            texts.insert(kept.body + kept.compactTrailing)
        }
        #expect(texts.count >= 3, "the minutes moved: \(texts)")
        // The bar of a 25-minute session moves a whole percent every 15 s, and waits for the
        // minutes' flips: 3 in 180 s, and the first.
        #expect(renders.made <= 180 / 60 + 1, "\(renders.made) renders for 180 ticks: one per minute")
    }

    @Test func aChangedActivityKindsOrZoneRendersAnew() throws {
        var registry = try Self.pomodoro()
        let renders = StyledRenders()
        let before = try #require(registry.activity("f"))
        _ = renders.rendered(before, style: Self.minutes, now: Self.t0 + 1, utcOffset: 0, registry: registry)
        _ = try registry.update(id: "f", state: ["task": .string("Writing")], options: UpdateOptions(), now: Self.t0 + 2)
        let after = try #require(registry.activity("f"))
        let kept = renders.rendered(after, style: Self.minutes, now: Self.t0 + 2, utcOffset: 0, registry: registry)
        #expect(kept == registry.render(after, now: Self.t0 + 2, timeZoneOffset: 0, style: Self.minutes))
        #expect(renders.made == 2, "an updated activity is rendered anew")
        _ = renders.rendered(after, style: Self.minutes, now: Self.t0 + 3, utcOffset: 3600, registry: registry)
        #expect(renders.made == 3, "another zone offset is rendered anew")
        registry.catalog = ServiceTestKinds.catalog
        _ = renders.rendered(after, style: Self.minutes, now: Self.t0 + 4, utcOffset: 3600, registry: registry)
        #expect(renders.made == 4, "new kinds are rendered anew")
        _ = renders.rendered(after, style: Self.minutes, now: Self.t0 + 3.5, utcOffset: 3600, registry: registry)
        #expect(renders.made == 5, "a moment before the render (the clock stepped back) is rendered anew")
    }
}
