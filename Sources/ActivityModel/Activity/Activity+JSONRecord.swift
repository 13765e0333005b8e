#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON of an activity written by hand, for the journal line of every acknowledged Update
/// (before the reply, so on the hot path). `JSONEncoder` costs about five times as much here.
/// The output is exactly what the synthesized `Codable` conformance reads back: the same keys,
/// optionals left out when nil, `Value` as its one-key object, `ExpiryRule` as `{"stay":{}}`
/// or `{"end":{"_0":"<reason>"}}`. Keys are not sorted (the decoder does not care).
extension Activity {
    /// The activity as one line of JSON in UTF-8 (no newline), or nil when a number is not
    /// finite (JSON has no form for it; use `JSONEncoder`, which reports the error).
    public func jsonRecord() -> [UInt8]? {
        var writer = JSONRecordWriter()
        writer.open()
        writer.key("id"); writer.string(id.rawValue)
        writer.key("kind"); writer.string(kind)
        writer.key("attributes"); writer.values(attributes)
        writer.key("state"); writer.values(state)
        writer.key("status"); writer.string(status.rawValue)
        writer.key("startedAt"); writer.number(startedAt)
        writer.key("updatedAt"); writer.number(updatedAt)
        if let staleAt { writer.key("staleAt"); writer.number(staleAt) }
        if let endedAt { writer.key("endedAt"); writer.number(endedAt) }
        if let reason { writer.key("reason"); writer.string(reason.rawValue) }
        writer.key("relevance"); writer.number(relevance)
        if let appName { writer.key("appName"); writer.string(appName) }
        if let appID { writer.key("appID"); writer.string(appID) }
        if let dismissAt { writer.key("dismissAt"); writer.number(dismissAt) }
        if let timer { writer.key("timer"); writer.timer(timer) }
        writer.key("phases")
        writer.raw("[")
        for (index, phase) in phases.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.phase(phase)
        }
        writer.raw("]")
        writer.key("phaseIndex"); writer.raw(String(phaseIndex))
        if let expiresAt { writer.key("expiresAt"); writer.number(expiresAt) }
        if let scheduledUpdates {
            // Rare (only activities with a timeline), so the standard encoder is fine here.
            writer.key("scheduledUpdates")
            if let encoded = try? JSONEncoder().encode(scheduledUpdates) {
                writer.raw(String(decoding: encoded, as: UTF8.self))
            } else {
                writer.failed = true
            }
        }
        writer.close()
        return writer.failed ? nil : writer.bytes
    }
}

/// Builds one JSON object as UTF-8 bytes; commas between members are placed by `key`.
private struct JSONRecordWriter {
    var bytes: [UInt8] = []
    /// Whether a non-finite number was met (the record is then unusable).
    var failed = false
    private var needsComma = false

    init() { bytes.reserveCapacity(512) }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func open() {
        raw("{")
        needsComma = false
    }

    mutating func close() {
        raw("}")
        needsComma = true
    }

    mutating func key(_ name: String) {
        if needsComma { raw(",") }
        string(name)
        raw(":")
        needsComma = true
    }

    mutating func number(_ value: Double) {
        guard value.isFinite else { failed = true; return }
        raw(value.description)
    }

    mutating func values(_ values: [String: Value]) {
        open()
        for (name, value) in values {
            key(name)
            open()
            switch value {
            case .string(let s): key("s"); string(s)
            case .int(let i): key("i"); raw(String(i))
            case .double(let d): key("d"); number(d)
            case .bool(let b): key("b"); raw(b ? "true" : "false")
            }
            close()
        }
        close()
    }

    mutating func timer(_ timer: TimerState) {
        open()
        key("start"); number(timer.start)
        if let duration = timer.duration { key("duration"); number(duration) }
        key("extended"); number(timer.extended)
        if let pausedAt = timer.pausedAt { key("pausedAt"); number(pausedAt) }
        key("pausedTotal"); number(timer.pausedTotal)
        key("countsDown"); raw(timer.countsDown ? "true" : "false")
        if let fromClock = timer.startTakenFromClock { key("startTakenFromClock"); raw(fromClock ? "true" : "false") }
        key("expiry")
        open()
        switch timer.expiry {
        case .stay:
            key("stay"); open(); close()
        case .end(let reason):
            key("end"); open(); key("_0"); string(reason.rawValue); close()
        }
        close()
        close()
    }

    mutating func phase(_ phase: PhaseState) {
        open()
        key("name"); string(phase.name)
        key("label"); string(phase.label)
        if let end = phase.end { key("end"); number(end) }
        close()
    }

    /// A JSON string: quotes, backslashes and control characters escaped.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most texts need no escape: then their bytes are copied at once, not one by one.
        let copied = value.utf8.withContiguousStorageIfAvailable { utf8 in
            for byte in utf8 where Self.needsEscape(byte) { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            if Self.needsEscape(byte) {
                escape(byte)
            } else {
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether JSON needs `byte` escaped inside a string: quote, backslash, control characters.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case UInt8(ascii: "\n"): raw("\\n")
        case UInt8(ascii: "\r"): raw("\\r")
        case UInt8(ascii: "\t"): raw("\\t")
        default:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            raw("\\u00")
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0xF)])
        }
    }
}
