@testable import PushLink
import Testing

/// The rules of `PushRegistry+Identity` as a table: stale, duplicate, new; bounded digests;
/// healing of timestamps saved far ahead of the clock.
@Suite(.timeLimit(.minutes(5))) struct PushIdentityRulesTests {
    @Test(arguments: [
        (5.0, "a", nil as Double?, nil as [String]?, PushRegistry.Verdict.apply),
        (5.0, "a", 6.0, ["b"], .stale(last: 6)),
        (6.0, "a", 6.0, ["a", "b"], .duplicate),
        (6.0, "c", 6.0, ["a", "b"], .apply),
        (7.0, "a", 6.0, ["a"], .apply),
    ])
    func verdicts(timestamp: Double, digest: String, last: Double?, digests: [String]?, expected: PushRegistry.Verdict) {
        #expect(PushRegistry.verdict(timestamp: timestamp, digest: digest, last: last, digests: digests) == expected)
    }

    @Test func digestsAreKeptForTheLastTimestampOnlyAndBounded() {
        var registry = PushRegistry(clientID: "test")
        registry.activities["a"] = PushRegistry.ActivityEntry()
        for n in 0..<100 { registry.applied(activity: "a", timestamp: 10, digest: "d\(n)") }
        #expect(registry.activities["a"]?.appliedDigests?.count == PushRegistry.digestsKept)
        #expect(registry.verdict(activity: "a", timestamp: 10, digest: "d99") == .duplicate)
        registry.applied(activity: "a", timestamp: 11, digest: "e")
        #expect(registry.activities["a"]?.appliedDigests == ["e"])
        registry.applied(start: "generic", timestamp: 3, digest: "s")
        #expect(registry.verdict(start: "generic", timestamp: 3, digest: "s") == .duplicate)
        #expect(registry.verdict(start: "generic", timestamp: 3, digest: "t") == .apply)
    }

    @Test func timestampsFarAheadAreHealed() {
        var registry = PushRegistry(clientID: "test")
        registry.activities["locked"] = PushRegistry.ActivityEntry(token: "t", announced: true, lastTimestamp: 1.7e12, appliedDigests: ["x"])
        registry.activities["fine"] = PushRegistry.ActivityEntry(token: "u", announced: true, lastTimestamp: 1_000, appliedDigests: ["y"])
        registry.lastStartTimestamps = ["generic": 1e300, "focus": 999]
        let healed = registry.healFutureTimestamps(now: 1_000)
        #expect(healed == ["activity locked", "push-to-start of kind generic"])
        #expect(registry.activities["locked"]?.lastTimestamp == nil && registry.activities["locked"]?.token == "t")
        #expect(registry.activities["fine"]?.lastTimestamp == 1_000)
        #expect(registry.lastStartTimestamps == ["focus": 999])
    }
}
