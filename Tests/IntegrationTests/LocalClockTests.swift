import DBus
import Foundation
import Testing
import TestSupport

/// Clock times on cards are local times of the daemon's zone (TZ), DST included: the focus
/// card's "ends at" against what `date` prints for the same instant in the same zone.
@Suite("Local clock times on cards", .timeLimit(.minutes(5)))
struct LocalClockTests {
    @Test(arguments: ["IST-5:30", "CET-1CEST,M3.5.0,M10.5.0/3", "EST5EDT,M3.2.0,M11.1.0"])
    func endsAtIsLocalTime(zone: String) throws {
        let f = try DaemonFixture(recorderName: nil, environment: ["TZ": zone])
        let start = Clock.now
        let id = try f.client.start("focus", attributes: ["minutes": .uint32(25), "start-time": .int64(start)])
        let body = try f.client.get(id)["body"]?.string ?? ""
        let date = try runCommand("date", ["-d", "@\(start + 25 * 60)", "+%H:%M"], environment: ["TZ": zone])
        let expected = date.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!expected.isEmpty)
        #expect(body.hasSuffix("ends at \(expected)"), "in \(zone): \(body)")
    }
}
