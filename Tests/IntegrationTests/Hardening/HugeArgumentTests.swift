import DBus
import Foundation
import Testing
import TestSupport

/// Short errors (issue 14, fault 7): a 1 MiB kind name, id, key or value is refused with a
/// message that quotes at most about 100 characters of it and gives its length.
@Suite("Huge arguments", .timeLimit(.minutes(5)))
struct HugeArgumentTests {
    static let huge = String(repeating: "k", count: 1 << 20)

    @Test func errorsQuoteAShortPrefixAndTheLength() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        let live = try c.start("generic", state: ["title": .string("t")])
        let calls: [(String, () throws -> Void)] = [
            ("kind", { _ = try c.start(Self.huge, state: ["title": .string("t")]) }),
            ("id option", { _ = try c.start("generic", state: ["title": .string("t")], options: ["id": .string(Self.huge)]) }),
            ("option key", { _ = try c.start("generic", state: ["title": .string("t")], options: [Self.huge: .string("x")]) }),
            ("state key", { _ = try c.start("generic", state: ["title": .string("t"), Self.huge: .string("x")]) }),
            ("Get id", { _ = try c.get(Self.huge) }),
            ("Update id", { try c.update(Self.huge, ["body": .string("b")]) }),
            ("End reason", { try c.end(live, options: ["reason": .string(Self.huge)]) }),
            ("End dismissal", { try c.end(live, options: ["dismissal": .string(Self.huge)]) }),
            ("Pause id", { try c.call("Pause", [.string(Self.huge)]) }),
        ]
        var quoted = 0
        for (what, call) in calls {
            let error = c.error(call)
            let message = error?.message ?? ""
            #expect(error != nil, "\(what) is refused")
            #expect(message.count < 400, "\(what): \(message.count) characters: \(message.prefix(300))")
            if message.contains("kkkk") {
                quoted += 1
                #expect(message.contains("1048576 characters"), "\(what) gives the length: \(message.prefix(300))")
            }
        }
        #expect(quoted >= 7, "most of these errors quote the argument")
        #expect(try c.get(live)["status"]?.string == "active", "nothing changed")
    }
}
