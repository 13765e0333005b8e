/// The JSON of an activity written by hand, for the journal line of every acknowledged Update
/// (before the reply, so on the hot path). `JSONEncoder` costs about five times as much here.
/// The output is exactly what the synthesized `Codable` conformance reads back: the same keys,
/// optionals left out when nil, `Value` as its one-key object, `ExpiryRule` as `{"stay":{}}`
/// or `{"end":{"_0":"<reason>"}}`. Keys are not sorted (the decoder does not care).
extension Activity {
    /// The activity as one line of JSON (no newline), or nil when a number is not finite (JSON
    /// has no form for it; use `JSONEncoder`, which reports the error).
    public func jsonRecord() -> String? {
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
        if let dismissAt { writer.key("dismissAt"); writer.number(dismissAt) }
        if let timer { writer.key("timer"); writer.timer(timer) }
        writer.key("phases")
        writer.text += "["
        for (index, phase) in phases.enumerated() {
            if index > 0 { writer.text += "," }
            writer.phase(phase)
        }
        writer.text += "]"
        writer.key("phaseIndex"); writer.text += String(phaseIndex)
        if let expiresAt { writer.key("expiresAt"); writer.number(expiresAt) }
        writer.close()
        return writer.failed ? nil : writer.text
    }
}

/// Builds one JSON object in a string; commas between members are placed by `key`.
private struct JSONRecordWriter {
    var text = ""
    /// Whether a non-finite number was met (the record is then unusable).
    var failed = false
    private var needsComma = false

    mutating func open() {
        text += "{"
        needsComma = false
    }

    mutating func close() {
        text += "}"
        needsComma = true
    }

    mutating func key(_ name: String) {
        if needsComma { text += "," }
        string(name)
        text += ":"
        needsComma = true
    }

    mutating func number(_ value: Double) {
        guard value.isFinite else { failed = true; return }
        text += value.description
    }

    mutating func values(_ values: [String: Value]) {
        open()
        for (name, value) in values {
            key(name)
            open()
            switch value {
            case .string(let s): key("s"); string(s)
            case .int(let i): key("i"); text += String(i)
            case .double(let d): key("d"); number(d)
            case .bool(let b): key("b"); text += b ? "true" : "false"
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
        key("countsDown"); text += timer.countsDown ? "true" : "false"
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
        text += "\""
        var plainStart = value.utf8.startIndex
        let utf8 = value.utf8
        var index = plainStart
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                text += String(Substring(utf8[plainStart..<index]))
                text += Self.escape(byte)
                plainStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        text += String(Substring(utf8[plainStart..<utf8.endIndex]))
        text += "\""
    }

    private static func escape(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\""): return "\\\""
        case UInt8(ascii: "\\"): return "\\\\"
        case UInt8(ascii: "\n"): return "\\n"
        case UInt8(ascii: "\r"): return "\\r"
        case UInt8(ascii: "\t"): return "\\t"
        default:
            let hex = Array("0123456789abcdef")
            return "\\u00" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
        }
    }
}
