import DBus
import Foundation

/// Attributes or state in the daemon's flat form, with the paths that hold dates.
struct FlatPayload {
    var values: [String: DBusValue]
    var datePaths: Set<String>

    /// Encodes and flattens a value; any failure is `invalidContent` naming the key.
    init<T: Encodable>(encoding value: T, what: String) throws(ActivityAuthorizationError) {
        var encoder = DBusValueEncoder()
        do {
            let nested = try encoder.encode(value)
            values = try FlatState.flatten(nested)
            datePaths = encoder.datePaths
        } catch let error as FlatStateError {
            throw ActivityAuthorizationError(.invalidContent, "\(what): \(error.message)")
        } catch {
            throw ActivityAuthorizationError(.invalidContent, "\(what): \(CodingMessages.describe(error))")
        }
    }

    /// Decodes a flat dictionary from the daemon; failures are `invalidContent`.
    static func decode<T: Decodable>(_ type: T.Type, from flat: [String: DBusValue],
                                     what: String) throws(ActivityAuthorizationError) -> T {
        do {
            return try DBusValueDecoder().decode(type, from: FlatState.unflatten(flat))
        } catch {
            throw ActivityAuthorizationError(.invalidContent, "\(what): \(CodingMessages.describe(error))")
        }
    }
}

/// Encoding and decoding errors in one line: `state key "session.name": expected a string, found int64 5`.
enum CodingMessages {
    static func describe(_ error: any Error) -> String {
        let context: (path: [any CodingKey], text: String)
        switch error {
        case EncodingError.invalidValue(_, let c): context = (c.codingPath, c.debugDescription)
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c), DecodingError.dataCorrupted(let c):
            context = (c.codingPath, c.debugDescription)
        case DecodingError.keyNotFound(let key, let c): context = (c.codingPath + [key], "missing")
        default: return "\(error)"
        }
        let path = FlatState.path(context.path)
        return path.isEmpty ? context.text : "key \"\(path)\": \(context.text)"
    }
}

/// The card of an attributes type that ships no kind file: the daemon's `generic` kind with a
/// title from the type's name and a body listing the state's fields, so it is never empty.
/// The type is also named in the attributes (`attributes-type`, as in ActivityKit's push
/// payloads), so `activities` finds its own generic activities among other programs'.
enum FallbackCard {
    static let kind = "generic"
    static let typeKey = "attributes-type"

    static func attributes(_ attributes: FlatPayload, kindName: String) -> [String: DBusValue] {
        var values = attributes.values
        values[typeKey] = .string(kindName)
        return values
    }

    /// The state plus `title` and `body` (unless the state has its own).
    static func state(_ state: FlatPayload, title: String) -> [String: DBusValue] {
        var values = state.values
        if values["title"] == nil { values["title"] = .string(title) }
        if values["body"] == nil { values["body"] = .string(body(state)) }
        return values
    }

    /// `Session name: Deep Work · Ends at: 14:30 · Paused: no`: the state's fields, at most 8.
    static func body(_ state: FlatPayload) -> String {
        let fields = state.values.keys.sorted().compactMap { key -> String? in
            guard key != "progress", key != "icon", let value = state.values[key],
                  let text = text(value, isDate: state.datePaths.contains(key)) else { return nil }
            return "\(Words.label(key)): \(text)"
        }
        return fields.prefix(8).joined(separator: " · ")
    }

    private static func text(_ value: DBusValue, isDate: Bool) -> String? {
        switch value {
        case .string(let text):
            return UUID(uuidString: text) == nil && !text.isEmpty ? text : nil
        case .boolean(let flag): return flag ? "yes" : "no"
        case .double(let number) where isDate:
            return Date(timeIntervalSince1970: number).formatted(date: .omitted, time: .shortened)
        case .double(let number):
            return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(format: "%.2f", number)
        default:
            return value.integer.map(String.init)
        }
    }
}

/// One activity as `Get` returns it, typed where LiveActivityKit needs it.
struct DaemonSnapshot: Sendable {
    let id: String
    let kind: String
    let status: String
    let attributes: [String: DBusValue]
    let state: [String: DBusValue]
    let staleAt: Int64
    let relevance: Double
    /// The `push-token` (hex) as bytes, when the daemon issued one.
    let pushToken: Data?
    /// The segments as the daemon draws them (its `Segments`, `Points`, `SegmentText`).
    let segments: ProgressSegments?

    init?(getReply: [DBusValue]) {
        guard let properties = getReply.first?.vardict, let id = properties["id"]?.string else { return nil }
        self.id = id
        kind = properties["kind"]?.string ?? ""
        status = properties["status"]?.string ?? "active"
        attributes = properties["attributes"]?.vardict ?? [:]
        state = properties["state"]?.vardict ?? [:]
        staleAt = properties["stale-at"]?.integer ?? 0
        relevance = properties["relevance"]?.double ?? 0
        pushToken = properties["push-token"]?.string.flatMap(PushOptions.bytes(hex:))
        segments = DrawnSegments.read(properties: properties, state: state)
    }

    var staleDate: Date? { staleAt > 0 ? Date(timeIntervalSince1970: TimeInterval(staleAt)) : nil }

    /// The content for `State`, or nil when the daemon's state does not decode as it.
    func content<State: Decodable & Encodable & Hashable>(_ type: State.Type) -> ActivityContent<State>? {
        guard let state = try? FlatPayload.decode(State.self, from: state, what: "state") else { return nil }
        return ActivityContent(state: state, staleDate: staleDate, relevanceScore: relevance,
                               segments: segments)
    }
}
