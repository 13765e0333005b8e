import DBus
import Foundation
import Testing
import TestSupport

/// The manager interface as a client sees it: replies, errors, signals and properties.
@Suite("Manager API on a private bus", .timeLimit(.minutes(5)))
struct ManagerAPITests {
    static let errorPrefix = BusNames.errorPrefix

    @Test func startGetListUpdateEnd() throws {
        let f = try DaemonFixture()
        let c = f.client
        let reply = try c.call("Start", [.string("generic"), .vardict([:]),
                                         .vardict(["title": .string("Build"), "body": .string("Compiling"),
                                                   "progress": .double(0.25)]),
                                         .vardict(["id": .string("build1")])])
        #expect(reply == [.string("build1"), .objectPath("/io/github/liveactivities/LiveActivities1/activity/build1")])

        var props = try c.get("build1")
        #expect(props["id"]?.string == "build1")
        #expect(props["kind"]?.string == "generic")
        #expect(props["status"]?.string == "active")
        #expect(props["title"]?.string == "Build")
        #expect(props["body"]?.string?.contains("Compiling") == true)
        #expect(props["progress"]?.double == 0.25)
        #expect((props["started-at"]?.integer ?? 0) > 1_700_000_000)
        #expect(props["ended-at"]?.integer == 0)
        #expect(props["attributes"] == .vardict([:]))
        #expect(props["state"] == .vardict(["title": .string("Build"), "body": .string("Compiling"), "progress": .double(0.25)]))
        #expect(props["updated-at"] != nil && props["updated-at"] == props["started-at"], "nothing updated it yet")
        #expect(props["stale-at"] == .int64(0))
        #expect(props["reason"] == .string(""))
        #expect(props["relevance"] == .double(0))
        #expect(props["compact-leading"] == .string("Build"))
        #expect(props["compact-trailing"] == .string("25%"))
        #expect(props["minimal"] == .string("25%"))
        #expect(props.count == 26, "every property of the Activity interface: \(props.keys.sorted())")
        #expect(props["app-id"] == .string(""), "no app-id given (issue 31)")
        #expect(props["lock-screen"] == .string("full") && props["kind-name"] == .string("Activity"), "issue 26")
        #expect(props["segments"] == .array(elementSignature: "(sdsd)", []) && props["segment-text"] == .string(""),
                "no segments without phases or segment keys")
        #expect(props["push-token"] == .string(""), "no token without push")
        #expect(props["actions"] == .array(elementSignature: "(ss)", [.structure([.string("end"), .string("End")])]),
                "the card's buttons: \(String(describing: props["actions"]))")
        #expect(try c.list() == [["build1", "generic", "active", "/io/github/liveactivities/LiveActivities1/activity/build1"]])
        #expect(try c.property("ActiveCount") == .uint32(1))

        try c.update("build1", ["progress": .double(0.5), "body": .string("Linking")])
        props = try c.get("build1")
        #expect(props["progress"]?.double == 0.5)
        #expect(props["title"]?.string == "Build", "Update merges: keys not sent stay")
        #expect(props["state"]?.vardict?["body"]?.string == "Linking")

        try c.end("build1", options: ["reason": .string("completed")])
        props = try c.get("build1")
        #expect(props["status"]?.string == "ended")
        #expect(props["reason"]?.string == "completed")
        #expect((props["ended-at"]?.integer ?? 0) > 0)
        #expect(try c.property("ActiveCount") == .uint32(0))

        c.waitFor(timeout: 2) { c.received("ActivityEnded").count == 1 }
        #expect(c.received("ActivityStarted").first == [.string("build1"), .string("generic")])
        #expect(c.received("ActivityUpdated").first == [.string("build1")])
        #expect(c.received("ActivityEnded").first == [.string("build1"), .string("completed")])
        #expect(c.received("StatusChanged").contains([.string("build1"), .string("ended")]))
    }

    @Test func activityObjectPropertiesAndPropertiesChanged() throws {
        let f = try DaemonFixture()
        let c = f.client
        let id = try c.start("generic", state: ["title": .string("A"), "progress": .double(0.1)])
        let path = "/io/github/liveactivities/LiveActivities1/activity/\(id)"
        #expect(try c.property("Title", path: path, interface: TestClient.activityInterface) == .string("A"))
        #expect(try c.property("Progress", path: path, interface: TestClient.activityInterface) == .double(0.1))
        #expect(try c.property("Status", path: path, interface: TestClient.activityInterface) == .string("active"))
        try c.update(id, ["title": .string("B")])
        let changed = c.waitFor(timeout: 3) {
            c.signals.contains { m in
                m.member == "PropertiesChanged" && m.path == path &&
                    ((try? m.arguments())?[1].vardict?["Title"]?.string == "B")
            }
        }
        #expect(changed, "PropertiesChanged with the new Title")
        let managed = try c.call("GetManagedObjects", interface: "org.freedesktop.DBus.ObjectManager")
        let objects = InterfaceXML.entries(managed.first)
        #expect(objects.keys.contains(path), "GetManagedObjects lists \(path): \(objects.keys.sorted())")
        let interfaces = InterfaceXML.entries(objects[path])
        #expect(interfaces[TestClient.activityInterface]?.vardict?["Title"] == .string("B"),
                "the object's Activity interface with its current Title")
    }

    @Test func errorsHaveNamesAndMessagesAndChangeNothing() throws {
        let f = try DaemonFixture()
        let c = f.client
        _ = try c.start("generic", state: ["title": .string("one")], options: ["id": .string("one")])

        var e = c.error { _ = try c.start("nope") }
        #expect(e?.name == Self.errorPrefix + "UnknownKind")
        #expect(e?.message.contains("nope") == true && e?.message.contains("generic") == true)

        e = c.error { _ = try c.start("generic", options: ["id": .string("one")]) }
        #expect(e?.name == Self.errorPrefix + "AlreadyExists")

        e = c.error { try c.update("missing", ["title": .string("x")]) }
        #expect(e?.name == Self.errorPrefix + "NotFound")
        #expect(e?.message.contains("missing") == true)

        e = c.error { try c.update("one", ["progress": .string("abc")]) }
        #expect(e?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(e?.message.contains("progress") == true && e?.message.contains("abc") == true)

        e = c.error { try c.update("one", ["progress": .double(1.5)]) }
        #expect(e?.name == "org.freedesktop.DBus.Error.InvalidArgs")

        e = c.error { try c.update("one", ["title": .array(elementSignature: "s", [])]) }
        #expect(e?.name == "org.freedesktop.DBus.Error.InvalidArgs")

        e = c.error { try c.call("Start", [.string("generic")]) }
        #expect(e?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(e?.message.contains("sa{sv}a{sv}a{sv}") == true)

        e = c.error { _ = try c.start("generic", options: ["id": .string("bad id!")]) }
        #expect(e?.name == "org.freedesktop.DBus.Error.InvalidArgs")

        e = c.error { _ = try c.start("generic", options: ["colour": .string("red")]) }
        #expect(e?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(e?.message.contains("colour") == true)

        let big = String(repeating: "x", count: 5000)
        e = c.error { _ = try c.start("generic", state: ["body": .string(big)]) }
        #expect(e?.name == Self.errorPrefix + "PayloadTooLarge")
        #expect(e?.message.contains("4096") == true)

        // Nothing above changed anything.
        #expect(try c.list().map { $0[0] } == ["one"])
        #expect(try c.get("one")["title"]?.string == "one")
        #expect(try c.get("one")["state"]?.vardict?.keys.sorted() == ["title"])

        try c.end("one")
        e = c.error { try c.update("one", ["title": .string("late")]) }
        #expect(e?.name == Self.errorPrefix + "NotActive")
    }

    @Test func tooManyActivitiesAndDisabled() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        for i in 0..<32 { _ = try c.start("generic", state: ["title": .string("t\(i)")]) }
        let e = c.error { _ = try c.start("generic") }
        #expect(e?.name == Self.errorPrefix + "TooManyActivities")
        #expect(try c.list().count == 32)

        try c.call("Set", [.string(TestClient.interface), .string("Enabled"), .variant(.boolean(false))],
                   interface: "org.freedesktop.DBus.Properties")
        #expect(try c.property("Enabled") == .boolean(false))
        let list = try c.list()
        try c.end(list[0][0], options: ["dismissal": .string("immediate")])
        let disabled = c.error { _ = try c.start("generic") }
        #expect(disabled?.name == Self.errorPrefix + "Disabled")
    }

    @Test func relevanceOrdersListAndCompactText() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        _ = try c.start("generic", state: ["title": .string("low")], options: ["id": .string("low"), "relevance": .double(1)])
        _ = try c.start("generic", state: ["title": .string("high")], options: ["id": .string("high"), "relevance": .double(5)])
        _ = try c.start("generic", state: ["title": .string("newer")], options: ["id": .string("newer"), "relevance": .double(1)])
        #expect(try c.list().map { $0[0] } == ["high", "newer", "low"])
        try c.update("low", ["title": .string("low")], options: ["relevance": .double(9)])
        #expect(try c.list().map { $0[0] } == ["low", "high", "newer"])
        let compact = try c.property("CompactText").string ?? ""
        #expect(compact.hasPrefix("low"), "the most relevant activity leads the compact view: \(compact)")
        #expect(compact.components(separatedBy: " · ").count == 3, "one part per live activity: \(compact)")
    }

    @Test func dismissalImmediateRemovesAndDefaultKeeps() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        _ = try c.start("generic", state: ["title": .string("a")], options: ["id": .string("a")])
        _ = try c.start("generic", state: ["title": .string("b")], options: ["id": .string("b")])
        try c.end("a", options: ["dismissal": .string("immediate")])
        try c.end("b")
        #expect(try c.list().map { $0[0] } == ["b"])
        #expect(c.error { _ = try c.get("a") }?.name == Self.errorPrefix + "NotFound")
        #expect(try c.get("b")["status"]?.string == "ended")
        let again = c.error { try c.end("b") }
        #expect(again?.name == Self.errorPrefix + "NotActive", "an ended activity cannot be ended again")
        _ = try c.start("generic", state: ["title": .string("c")], options: ["id": .string("c")])
        let bad = c.error { try c.end("c", options: ["dismissal": .string("later")]) }
        #expect(bad?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(bad?.message.contains("later") == true)
        #expect(try c.get("c")["status"]?.string == "active", "a refused End changes nothing")
    }

    @Test func staleAtMakesTheActivityStale() throws {
        let f = try DaemonFixture(recorderName: nil)
        let c = f.client
        let soon = Int64(Date().timeIntervalSince1970) + 2
        let id = try c.start("generic", state: ["title": .string("s")], options: ["stale-at": .int64(soon)])
        #expect(try c.get(id)["status"]?.string == "active")
        #expect(c.waitFor(timeout: 5) { c.received("StatusChanged").contains([.string(id), .string("stale")]) })
        #expect(try c.get(id)["status"]?.string == "stale")
        try c.update(id, ["title": .string("fresh")])
        #expect(try c.get(id)["status"]?.string == "active")
    }

    @Test func introspectionMatchesTheShippedXML() throws {
        let f = try DaemonFixture(recorderName: nil)
        let id = try f.client.start("generic")
        let managerXML = try f.client.call("Introspect", interface: "org.freedesktop.DBus.Introspectable").first?.string ?? ""
        let activityXML = try f.client.call("Introspect", path: "/io/github/liveactivities/LiveActivities1/activity/\(id)",
                                            interface: "org.freedesktop.DBus.Introspectable").first?.string ?? ""
        let xml = managerXML + activityXML
        let shippedURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../data/dbus/io.github.liveactivities.LiveActivities1.xml").standardized
        let shipped = try String(contentsOf: shippedURL, encoding: .utf8)
        #expect(InterfaceXML.interfaces(in: xml) == InterfaceXML.interfaces(in: shipped))
        #expect(InterfaceXML.interfaces(in: shipped).contains { $0.contains("name=\"Start\"") })
    }
}

/// Picks the `<interface name="io.github.…">…</interface>` blocks out of introspection XML,
/// and the entries of the dictionaries that GetManagedObjects nests.
enum InterfaceXML {
    /// A dictionary keyed by strings or object paths, as `[key: value]`; empty for anything else.
    static func entries(_ value: DBusValue?) -> [String: DBusValue] {
        guard case .dictionary(_, _, let items)? = value else { return [:] }
        var result: [String: DBusValue] = [:]
        for item in items {
            switch item.key {
            case .string(let key), .objectPath(let key): result[key] = item.value
            default: continue
            }
        }
        return result
    }

    static func interfaces(in xml: String) -> [String] {
        var result: [String] = []
        var rest = Substring(xml)
        while let start = rest.range(of: "<interface name=\"io.github.liveactivities") {
            guard let end = rest[start.lowerBound...].range(of: "</interface>") else { break }
            let block = rest[start.lowerBound..<end.upperBound]
            result.append(block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n"))
            rest = rest[end.upperBound...]
        }
        return result
    }
}
