import DBus
import Foundation
import Testing
import TestSupport

/// Issue 18, point 2: a kind file with a template nested 10,000 deep, or a duration expression
/// of 10,000 parentheses or minus signs, overflowed the parsers' stack. On `main` it killed a
/// running daemon about a second after the file appeared (through the live reload), every
/// later start died before taking the bus name, and `liveactivity kinds` exited 139. Now the
/// parsers have a depth and size limit: the file is refused with a problem naming it, in the
/// log and in `liveactivity kinds`, and the daemon goes on serving.
@Suite("Hostile kind files", .timeLimit(.minutes(5)))
struct HostileKindFileTests {
    /// Kind files no parser may recurse on without bound, by file name.
    static let hostileFiles: [String: String] = [
        "deep.json": #"{"name": "deep", "templates": {"title": ""# + String(repeating: "[", count: 10_000)
            + String(repeating: "]", count: 10_000) + #""}}"#,
        "parens.json": #"{"name": "parens", "attributes": {"m": {"type": "number", "default": 1}}, "timer": {"duration": {"seconds": ""#
            + String(repeating: "(", count: 10_000) + "m" + String(repeating: ")", count: 10_000) + #""}, "counts": "down"}}"#,
        "minus.json": #"{"name": "minus", "attributes": {"m": {"type": "number", "default": 1}}, "timer": {"duration": {"minutes": ""#
            + String(repeating: "- ", count: 10_000) + #"m"}, "counts": "down"}}"#,
        "nested.json": #"{"name": "nested", "templates": {"title": ""# + String(repeating: "[", count: 17)
            + String(repeating: "]", count: 17) + #""}}"#,
        "nul.json": #"{"name": "nul", "templates": {"title": "evil\u0000tail"}}"#,
        "future.json": #"{"name": "future", "attributes": {"at": {"type": "time", "default": 1e300}}}"#,
    ]

    static func write(_ files: [String: String], to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
    }

    @Test func aDaemonStartedWithHostileKindFilesServesAndNamesThem() throws {
        let bus = try PrivateBus()
        let daemon = try DaemonProcess(bus: bus, start: false)
        try Self.write(Self.hostileFiles, to: daemon.configDirectory.appendingPathComponent("kinds"))
        try daemon.start()
        let c = try TestClient(bus: bus)
        guard case .array(_, let names) = try c.property("Kinds") else { Issue.record("Kinds is not an array"); return }
        #expect(names.compactMap(\.string) == ["fasting", "focus", "generic"])
        for file in Self.hostileFiles.keys { #expect(daemon.log().contains(file), "the log names \(file): \(daemon.log())") }
        #expect(daemon.log().contains("nest deeper than"), "and says why")

        let listing = try runCommand(BuiltProducts.path(of: "liveactivity"), ["kinds"], environment: daemon.environment)
        #expect(listing.status == 0, "liveactivity kinds: \(listing.stderr)")
        for file in Self.hostileFiles.keys { #expect(listing.stdout.contains(file), "liveactivity kinds lists \(file)") }
        #expect(listing.stdout.contains("deep.json: templates.title: the template has 20000 characters; at most 4096"), "\(listing.stdout)")
        #expect(listing.stdout.contains("nested.json: templates.title: optional segments nest deeper than 16"), "\(listing.stdout)")
        #expect(listing.stdout.contains("nul.json: byte"), "\(listing.stdout)")
        #expect(listing.stdout.contains("future.json: attributes.at.default"), "\(listing.stdout)")
        #expect(!listing.stdout.contains("\u{0}"))

        let id = try c.start("focus")
        #expect(try c.get(id)["status"]?.string == "active")
        #expect(daemon.isRunning)
    }

    @Test func aHostileKindFileAppearingWhileTheDaemonRunsIsRefusedByTheLiveReload() throws {
        let bus = try PrivateBus()
        let daemon = try DaemonProcess(bus: bus, start: false)
        let kinds = daemon.configDirectory.appendingPathComponent("kinds")
        try FileManager.default.createDirectory(at: kinds, withIntermediateDirectories: true)
        try daemon.start()
        let c = try TestClient(bus: bus)
        let before = try c.start("focus")

        try Self.write(Self.hostileFiles, to: kinds)
        // The reload logs every new problem: proof that it ran over the hostile files.
        #expect(waitUntil(timeout: 10) { Self.hostileFiles.keys.allSatisfy { daemon.log().contains($0) } },
                "the live reload names every hostile file: \(daemon.log())")
        #expect(daemon.isRunning, "the reload did not harm the daemon")
        #expect(try c.get(before)["status"]?.string == "active")
        let after = try c.start("generic", state: ["title": .string("still serving")])
        #expect(try c.get(after)["title"]?.string == "still serving")

        try daemon.restart()
        let again = try TestClient(bus: bus)
        #expect(try again.get(before)["status"]?.string == "active", "a restart with the files present serves too")
    }
}
