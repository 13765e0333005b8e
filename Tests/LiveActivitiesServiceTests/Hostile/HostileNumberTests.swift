import ActivityModel
import DBus
import Foundation
import Testing
import TestSupport
@testable import LiveActivitiesService

/// Issue 18, point 1: every time and number from the bus (and from push, which goes through
/// the same decoding) is checked once at the edge. Each value below crashed the daemon on
/// `main` (a Double→Int64 trap while rendering or publishing) and, being saved first, crashed
/// it again at every restart. Now each gets `InvalidArgs` and changes nothing, on disk included.
@Suite(.timeLimit(.minutes(5))) struct HostileNumberTests {
    static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"

    /// A hostile call: its name, and what it does to the service.
    struct Case: CustomStringConvertible, Sendable {
        let description: String
        let call: @Sendable (ActivityService) throws -> Void
    }

    static let cases: [Case] = [
        Case(description: "Start stale-at 1e300") {
            _ = try $0.start(kind: "generic", attributes: [:], state: ["title": .string("x")], options: ["stale-at": .double(1e300)])
        },
        Case(description: "Start stale-at -1") {
            _ = try $0.start(kind: "generic", attributes: [:], state: ["title": .string("x")], options: ["stale-at": .int64(-1)])
        },
        Case(description: "Toggle stale-at 9.3e18") {
            _ = try $0.toggle(kind: "generic", attributes: [:], state: ["title": .string("x")], options: ["stale-at": .double(9.3e18)])
        },
        Case(description: "Update stale-at 9.3e18") {
            try $0.update(id: "live", state: [:], options: ["stale-at": .double(9.3e18)])
        },
        Case(description: "Update stale-at Int64.max") {
            try $0.update(id: "live", state: [:], options: ["stale-at": .int64(.max)])
        },
        Case(description: "End dismiss-at 1e300") {
            try $0.end(id: "live", state: [:], options: ["dismiss-at": .double(1e300)])
        },
        Case(description: "generic timer-end 1e300") {
            _ = try $0.start(kind: "generic", attributes: ["timer-end": .double(1e300)], state: ["title": .string("x")], options: [:])
        },
        Case(description: "generic timer-start -9.3e18") {
            _ = try $0.start(kind: "generic", attributes: ["timer-start": .double(-9.3e18), "timer-end": .int64(1_700_000_000)],
                             state: ["title": .string("x")], options: [:])
        },
        Case(description: "focus start-time 1e300") {
            _ = try $0.start(kind: "focus", attributes: ["start-time": .double(1e300)], state: [:], options: [:])
        },
        Case(description: "focus start-time -1e300") {
            _ = try $0.start(kind: "focus", attributes: ["start-time": .double(-1e300)], state: [:], options: [:])
        },
        Case(description: "fasting start-time 1e300") {
            _ = try $0.start(kind: "fasting", attributes: ["start-time": .double(1e300)], state: [:], options: [:])
        },
        Case(description: "fasting start-time -9.3e18") {
            _ = try $0.start(kind: "fasting", attributes: ["start-time": .int64(-9_200_000_000_000_000_000)], state: [:], options: [:])
        },
        Case(description: "fasting start-time nan") {
            _ = try $0.start(kind: "fasting", attributes: ["start-time": .double(.nan)], state: [:], options: [:])
        },
        Case(description: "title with a NUL") {
            try $0.update(id: "live", state: ["title": .string("evil\u{0}tail")], options: [:])
        },
        Case(description: "state key with a NUL") {
            try $0.update(id: "live", state: ["ti\u{0}tle": .string("x")], options: [:])
        },
        Case(description: "alert-title with a NUL") {
            try $0.update(id: "live", state: [:], options: ["alert-title": .string("a\u{0}b")])
        },
    ]

    @Test(arguments: cases)
    func aHostileValueIsRefusedAndChangesNothing(_ hostile: Case) throws {
        let world = try ServiceWorld(cards: false)
        let before: String? = world.onService { service in
            _ = try? service.start(kind: "generic", attributes: [:], state: ["title": .string("kept")], options: ["id": .string("live")])
            return (try? service.properties(id: "live")).map { "\($0)" }
        }
        #expect(before != nil)
        let error: String? = world.onService { service in
            do {
                try hostile.call(service)
                return nil
            } catch let error as DBusError {
                return error.name + ": " + error.message
            } catch {
                return "\(error)"
            }
        }
        #expect(error?.hasPrefix(Self.invalidArgs) == true, "\(hostile): \(error ?? "accepted")")
        let after: (String?, Int) = world.onService { service in
            ((try? service.properties(id: "live")).map { "\($0)" }, service.list().count)
        }
        #expect(after.0 == before, "the live activity is unchanged")
        #expect(after.1 == 1, "nothing was started")
        let saved = try String(contentsOfFile: world.paths.stateFile, encoding: .utf8)
            + ((try? String(contentsOfFile: world.paths.stateDirectory + "/state.journal", encoding: .utf8)) ?? "")
        #expect(!saved.contains("e+300") && !saved.contains("e+18") && !saved.contains("\\u0000"), "nothing hostile was stored")
    }
}
