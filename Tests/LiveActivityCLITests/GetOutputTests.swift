import DBus
import Foundation
import Testing
@testable import LiveActivityCLI

/// `liveactivity get` shows times as people read them (issue 30): the properties' `…-at` and the
/// kinds' time attributes alike, never raw unix seconds beside a formatted one; `--json` keeps
/// the numbers.
@Suite(.timeLimit(.minutes(1))) struct GetOutputTests {
    static let moment: Int64 = 1_796_068_800  // 2026-11-30 20:00 UTC

    func formatted(_ seconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(seconds)).formatted(date: .abbreviated, time: .standard)
    }

    @Test func timeAttributesReadLikeTheStartedAtBesideThem() {
        let text = OutputFormat.text([
            "started-at": .int64(Self.moment),
            "attributes": .vardict(["protocol": .string("16:8"), "start-time": .int64(Self.moment)]),
            "state": .vardict(["title": .string("Build")]),
        ])
        #expect(text.contains("started-at: \(formatted(Self.moment))"), "\(text)")
        #expect(text.contains("start-time=\(formatted(Self.moment))"), "\(text)")
        #expect(!text.contains(String(Self.moment)), "no raw unix seconds: \(text)")
        #expect(OutputFormat.display(.vardict(["timer-end": .double(Double(Self.moment))]), key: "attributes")
                == "timer-end=\(formatted(Self.moment))")
        #expect(OutputFormat.display(.vardict(["minutes": .int32(25)]), key: "attributes") == "minutes=25", "not a time")
    }

    @Test func jsonKeepsTheNumbers() {
        let json = OutputFormat.json(OutputFormat.jsonObject(.vardict(["attributes": .vardict(["start-time": .int64(Self.moment)])])))
        #expect(json == "{\"attributes\":{\"start-time\":\(Self.moment)}}")
    }
}
