import ActivityModel
import DBus
import Foundation

/// How the CLI prints what the daemon returns: aligned `key: value` text for people, JSON
/// for scripts (keys as the daemon names them, numbers as numbers).
enum OutputFormat {
    /// The order `get` prints keys in (the Activity interface's order); others follow sorted.
    static let keyOrder = ["id", "kind", "status", "title", "body", "progress", "compact-leading", "compact-trailing",
                           "minimal", "attributes", "state", "relevance", "reason", "started-at", "updated-at",
                           "stale-at", "ended-at"]

    static func text(_ properties: [String: DBusValue]) -> String {
        let keys = keyOrder.filter { properties[$0] != nil } + properties.keys.filter { !keyOrder.contains($0) }.sorted()
        let width = (keys.map(\.count).max() ?? 0) + 1
        return keys.map { key in
            let label = (key + ":").padding(toLength: width + 1, withPad: " ", startingAt: 0)
            return label + display(properties[key] ?? .string(""), key: key)
        }.joined(separator: "\n")
    }

    /// Whether `key` holds a moment in unix seconds: the properties' `…-at`, and the kinds' time
    /// attributes (`start-time`, `timer-start`, `timer-end`), shown alike (issue 30 found a fast's
    /// `start-time` as raw seconds beside a formatted `started-at`).
    static func isTimeKey(_ key: String) -> Bool {
        key.hasSuffix("-at") || key.hasSuffix("-time") || key == "timer-start" || key == "timer-end"
    }

    /// A value as a person reads it: times as local date and time, dicts as key=value.
    static func display(_ value: DBusValue, key: String) -> String {
        let value = value.unwrapped
        if isTimeKey(key), let seconds = value.integer ?? value.double.flatMap({ $0.isFinite ? Int64(exactly: $0.rounded(.down)) : nil }) {
            guard InputLimits.isTime(Double(seconds)) else { return String(seconds) }
            return seconds == 0 ? "-" : Date(timeIntervalSince1970: Double(seconds)).formatted(date: .abbreviated, time: .standard)
        }
        if key == "progress", let d = value.double { return d < 0 ? "-" : "\(ShownPercent.of(d))%" }
        if let dict = value.vardict {
            return dict.keys.sorted().map { "\($0)=\(display(dict[$0] ?? .string(""), key: $0))" }.joined(separator: " ")
        }
        switch value {
        case .string(let s): return s
        case .array("(xa{sv}a{sv})", let rows):  // scheduled updates: each on a line of its own
            return rows.isEmpty ? "-" : rows.map { "\n  " + ScheduledUpdateLine.text($0) }.joined()
        case .array("(ss)", let rows):  // actions: each button's label, then its key
            return rows.compactMap { row -> String? in
                guard case .structure(let fields) = row, fields.count == 2 else { return nil }
                return "\(fields[1].string ?? "") (\(fields[0].string ?? ""))"
            }.joined(separator: ", ")
        case .array("(sdsd)", let rows):  // segments: label, share, state
            return rows.isEmpty ? "-" : rows.compactMap { row -> String? in
                guard case .structure(let fields) = row, fields.count == 4 else { return nil }
                return "\(fields[0].string ?? "") \(ShownPercent.of(fields[1].double ?? 0))% \(fields[2].string ?? "")"
            }.joined(separator: " | ")
        case .array("(ds)", let rows):  // points: position, label
            return rows.isEmpty ? "-" : rows.compactMap { row -> String? in
                guard case .structure(let fields) = row, fields.count == 2 else { return nil }
                return "\(ShownPercent.of(fields[0].double ?? 0))% \(fields[1].string ?? "")"
            }.joined(separator: ", ")
        case .boolean(let b): return b ? "true" : "false"
        case .double(let d): return String(d)
        default: return value.integer.map(String.init) ?? value.typeDescription
        }
    }

    /// A JSON-compatible object of a value (for JSONSerialization).
    static func jsonObject(_ value: DBusValue) -> Any {
        let value = value.unwrapped
        if let dict = value.vardict { return dict.mapValues(jsonObject) }
        switch value {
        case .string(let s), .objectPath(let s), .signature(let s): return s
        case .boolean(let b): return b
        case .double(let d): return d
        case .array(_, let items): return items.map(jsonObject)
        case .structure(let fields): return fields.map(jsonObject)
        case .dictionary(_, _, let entries):
            var object: [String: Any] = [:]
            for entry in entries { object[display(entry.key, key: "")] = jsonObject(entry.value) }
            return object
        default: return value.integer.map { NSNumber(value: $0) } ?? NSNull()
        }
    }

    static func json(_ object: Any) -> String {
        guard JSONSerialization.isValidJSONObject(object),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
