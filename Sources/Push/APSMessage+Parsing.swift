/// Reading a payload's bytes into an `APSMessage`: size first, then JSON, then the shape of
/// every `aps` key this project uses. Keys it does not use are listed, not refused.
extension APSMessage {
    /// Keys of `aps` that each event uses; any other key present is ignored (and listed).
    static let usedKeys: [Event: Set<String>] = [
        .start: ["event", "timestamp", "content-state", "stale-date", "relevance-score", "attributes-type",
                 "attributes", "input-push-token", "input-push-channel"],
        .update: ["event", "timestamp", "content-state", "stale-date", "relevance-score", "alert"],
        .end: ["event", "timestamp", "content-state", "dismissal-date"],
    ]

    /// Parses a message of at most `maxBytes` bytes.
    public static func parse(_ bytes: [UInt8], maxBytes: Int) throws(PushRejection) -> APSMessage {
        guard bytes.count <= maxBytes else {
            throw PushRejection("PayloadTooLarge", "the message has \(bytes.count) bytes; at most \(maxBytes) are accepted")
        }
        let document: JSONValue
        do {
            document = try JSONReader.parse(bytes)
        } catch {
            throw .invalid("\(error)")
        }
        guard case .object(let root) = document else { throw .invalid("expected a JSON object with key \"aps\", got \(document.typeDescription)") }
        guard let apsValue = root["aps"] else { throw .invalid("the message has no \"aps\" object") }
        guard case .object(let aps) = apsValue else { throw .invalid("aps: expected an object, got \(apsValue.typeDescription)") }
        return try parse(aps: aps)
    }

    /// Reads the `aps` dictionary.
    static func parse(aps: [String: JSONValue]) throws(PushRejection) -> APSMessage {
        let names = Event.allCases.map(\.rawValue).joined(separator: ", ")
        guard let eventValue = aps["event"] else { throw .invalid("aps.event is missing; expected one of \(names)") }
        guard case .string(let eventName) = eventValue, let event = Event(rawValue: eventName) else {
            throw .invalid("aps.event: expected one of \(names), got \(eventValue.typeDescription)")
        }
        guard let timestampValue = aps["timestamp"] else { throw .invalid("aps.timestamp is missing; expected unix seconds") }
        let timestamp = try unixTime(timestampValue, "aps.timestamp")
        let used = usedKeys[event] ?? []
        var message = APSMessage(event: event, timestamp: timestamp)
        message.ignoredKeys = aps.keys.filter { !used.contains($0) }.sorted()
        message.contentState = try scalars(aps["content-state"], "content-state")
        if used.contains("stale-date") { message.staleDate = try aps["stale-date"].map { v throws(PushRejection) in try unixTime(v, "aps.stale-date") } }
        if used.contains("dismissal-date") {
            message.dismissalDate = try aps["dismissal-date"].map { v throws(PushRejection) in try number(v, "aps.dismissal-date") }
        }
        if used.contains("relevance-score") {
            message.relevanceScore = try aps["relevance-score"].map { v throws(PushRejection) in try number(v, "aps.relevance-score") }
        }
        if used.contains("alert"), let alert = aps["alert"] { message.alert = try parseAlert(alert) }
        if event == .start { try readStart(aps, into: &message) }
        return message
    }

    private static func readStart(_ aps: [String: JSONValue], into message: inout APSMessage) throws(PushRejection) {
        guard let kindValue = aps["attributes-type"] else {
            throw .invalid("aps.attributes-type is missing; a start message names the kind of activity to start")
        }
        guard case .string(let kind) = kindValue else { throw .invalid("aps.attributes-type: expected a string, got \(kindValue.typeDescription)") }
        message.attributesType = kind
        message.attributes = try scalars(aps["attributes"], "attributes")
        if let tokenValue = aps["input-push-token"] {
            switch tokenValue {
            case .int(let i) where i == 0 || i == 1: message.inputPushToken = i == 1
            case .bool(let b): message.inputPushToken = b
            default: throw .invalid("aps.input-push-token: expected 1 or 0, got \(tokenValue.typeDescription)")
            }
        }
        if let channelValue = aps["input-push-channel"] {
            guard case .string(let channel) = channelValue else {
                throw .invalid("aps.input-push-channel: expected a channel id (string), got \(channelValue.typeDescription)")
            }
            message.inputPushChannel = channel
        }
    }

    private static func parseAlert(_ value: JSONValue) throws(PushRejection) -> Alert {
        guard case .object(let fields) = value else { throw .invalid("aps.alert: expected an object {title, body, sound}, got \(value.typeDescription)") }
        var alert = Alert()
        if let localized = fields.keys.sorted().first(where: { $0.hasSuffix("loc-key") || $0.hasSuffix("loc-args") }) {
            throw .invalid("aps.alert.\(localized): localized alerts are not supported; send the text in title and body")
        }
        for (key, field) in fields {
            guard case .string(let text) = field else {
                throw .invalid("aps.alert.\(key): expected a string (localized alerts are not supported), got \(field.typeDescription)")
            }
            switch key {
            case "title": alert.title = text
            case "body": alert.body = text
            case "sound": alert.sound = text
            default: break
            }
        }
        return alert
    }

    /// An object of scalars (`content-state`, `attributes`); absent means empty.
    private static func scalars(_ value: JSONValue?, _ what: String) throws(PushRejection) -> [String: JSONValue] {
        guard let value else { return [:] }
        guard case .object(let members) = value else { throw .invalid("aps.\(what): expected an object, got \(value.typeDescription)") }
        for key in members.keys.sorted() {
            guard let member = members[key] else { continue }
            switch member {
            case .string, .int, .double, .bool: continue
            default: throw .invalid("\(what) key \"\(key)\": expected a string, number or boolean, got \(member.typeDescription)")
            }
        }
        return members
    }

    private static func number(_ value: JSONValue, _ what: String) throws(PushRejection) -> Double {
        guard let number = value.number else { throw .invalid("\(what): expected a number, got \(value.typeDescription)") }
        return number
    }

    private static func unixTime(_ value: JSONValue, _ what: String) throws(PushRejection) -> Double {
        guard let seconds = value.number, seconds > 0 else {
            throw .invalid("\(what): expected unix seconds after 1970, got \(value.typeDescription)")
        }
        return seconds
    }
}
