import DBus
import Foundation
import Testing
@testable import LiveActivityKit

/// A content state with every shape the codec must carry: nested structs, arrays, an enum,
/// optionals, a UUID, a Date and a TimeInterval.
struct CodecSample: Codable, Hashable {
    enum Mood: String, Codable, Hashable { case calm, deepFocus = "deep focus" }
    struct Inner: Codable, Hashable {
        var label: String
        var weights: [Double]
        var mood: Mood
    }

    var inner: Inner
    var tags: [String]
    var empty: [Int]
    var id: UUID
    var at: Date
    var length: TimeInterval
    var note: String?
    var count: UInt8
    var flags: [Bool?]
}

@Suite("LiveActivityKit codec (no bus)", .timeLimit(.minutes(5)))
struct CodecTests {
    static let sample = CodecSample(
        inner: .init(label: "Deep Work", weights: [0.25, 1], mood: .deepFocus), tags: ["a", "b"], empty: [],
        id: UUID(), at: Date(timeIntervalSince1970: 1_796_125_594.856_098_2), length: 2700, note: nil, count: 7,
        flags: [true, nil, false])

    @Test("Nested structs become a{sv}, arrays av, enums their raw value, nil is left out")
    func shapes() throws {
        var encoder = DBusValueEncoder()
        let value = try encoder.encode(Self.sample)
        #expect(value.signature == "a{sv}")
        let top = try #require(value.vardict)
        #expect(top["note"] == nil)
        #expect(top["inner"]?.signature == "a{sv}")
        #expect(top["inner"]?.vardict?["mood"] == .string("deep focus"))
        #expect(top["tags"] == .array(elementSignature: "v", [.variant(.string("a")), .variant(.string("b"))]))
        #expect(top["id"] == .string(Self.sample.id.uuidString))
        #expect(top["at"] == .double(1_796_125_594.856_098_2))
        #expect(top["length"] == .double(2700))
        #expect(top["count"] == .int64(7))
        #expect(encoder.datePaths == ["at"])
    }

    @Test("The nested form decodes back to an equal value, Date and UUID exactly")
    func nestedRoundTrip() throws {
        var encoder = DBusValueEncoder()
        let decoded = try DBusValueDecoder().decode(CodecSample.self, from: try encoder.encode(Self.sample))
        #expect(decoded == Self.sample)
        #expect(decoded.at == Self.sample.at)
        #expect(decoded.id == Self.sample.id)
    }

    @Test("The daemon's flat form (dotted keys) reads back to an equal value")
    func flatRoundTrip() throws {
        var encoder = DBusValueEncoder()
        let flat = try FlatState.flatten(try encoder.encode(Self.sample))
        #expect(flat["inner.label"] == .string("Deep Work"))
        #expect(flat["inner.weights.1"] == .double(1))
        #expect(flat["tags.0"] == .string("a"))
        #expect(flat["flags.1"] == nil)
        #expect(flat["empty"] == nil && flat["note"] == nil)
        #expect(flat.values.allSatisfy { ["s", "b", "d", "x"].contains($0.signature) })
        let decoded = try DBusValueDecoder().decode(CodecSample.self, from: FlatState.unflatten(flat))
        #expect(decoded == Self.sample)
    }

    @Test("Dates built from unix seconds round-trip bit-exactly", arguments: 0..<100)
    func unixDates(_ round: Int) throws {
        let date = Date(timeIntervalSince1970: 1_796_000_000 + Double(round) * 0.001_37)
        var encoder = DBusValueEncoder()
        #expect(try DBusValueDecoder().decode(Date.self, from: try encoder.encode(date)) == date)
    }

    /// The daemon keeps times as unix seconds in a double (DESIGN.md), whose grid near 2026 is
    /// 2^-22 s: a `Date()` (kept as seconds since 2001) comes back rounded to it, at most
    /// 2^-23 s (0.12 µs) away (docs/swift.md).
    @Test("Date() and computed dates come back within 0.12 µs", arguments: 0..<100)
    func computedDates(_ round: Int) throws {
        for date in [Date(), Date().addingTimeInterval(Double(round) * 0.000_37)] {
            var encoder = DBusValueEncoder()
            let decoded = try DBusValueDecoder().decode(Date.self, from: try encoder.encode(date))
            #expect(abs(decoded.timeIntervalSince(date)) <= 0x1p-23)
        }
    }

    @Test("Values the daemon cannot hold are refused with the key that holds them")
    func refusals() throws {
        struct Bad: Codable { var ratio: Double }
        #expect(throws: ActivityAuthorizationError.invalidContent) { try FlatPayload(encoding: Bad(ratio: .nan), what: "state") }
        do {
            _ = try FlatPayload(encoding: Bad(ratio: .infinity), what: "state")
        } catch {
            #expect(error.message.contains("key \"ratio\""))
        }
        #expect(throws: FlatStateError.self) { try FlatState.flatten(.vardict(["a.b": .int64(1)])) }
    }

    @Test("A value of the wrong type is refused naming its dotted path")
    func decodeMismatch() throws {
        do {
            _ = try FlatPayload.decode(CodecSample.self, from: ["inner.label": .int64(5)], what: "state")
            Issue.record("decoded a number as a string")
        } catch {
            #expect(error.code == .invalidContent)
            #expect(error.message.contains("inner.label"), "\(error.message)")
        }
    }

    @Test("Without a kind file the card has a title from the type and a body from the fields")
    func fallbackCard() throws {
        struct PizzaDeliveryAttributes {}
        #expect(ActivityKindName.title(of: PizzaDeliveryAttributes.self) == "Pizza Delivery")
        #expect(ActivityKindName.derived(from: PizzaDeliveryAttributes.self) == "PizzaDeliveryAttributes")
        struct State: Codable { var driverName: String; var stops: Int; var eta: Date; var delivered: Bool; var id: UUID }
        let flat = try FlatPayload(encoding: State(driverName: "Ana", stops: 2, eta: Date(timeIntervalSince1970: 0),
                                                   delivered: false, id: UUID()), what: "state")
        let state = FallbackCard.state(flat, title: "Pizza Delivery")
        #expect(state["title"] == .string("Pizza Delivery"))
        let body = try #require(state["body"]?.string)
        #expect(body.hasPrefix("Delivered: no · Driver name: Ana · Eta: "), "\(body)")
        #expect(body.hasSuffix(" · Stops: 2"), "\(body)")
        #expect(!body.contains("1970") && !body.contains("Id:"))
    }

    @Test("Errors match by code and keep the daemon's message")
    func errorMatching() {
        let error: any Error = ActivityAuthorizationError(.attributesTooLarge, "attributes and state are 5000 bytes")
        switch error {
        case ActivityAuthorizationError.denied: Issue.record("matched the wrong code")
        case ActivityAuthorizationError.attributesTooLarge: break
        default: Issue.record("did not match its code")
        }
        #expect((error as? ActivityAuthorizationError)?.failureReason == "attributes and state are 5000 bytes")
    }
}
