import ActivityModel
import Push

/// A push message's start, update or end as the model-level request the bus's calls build
/// (`StartRequest`, `UpdateRequest`, `EndRequest`), straight from its JSON: no D-Bus value on
/// the way. The checks and their words are the bus's (`ValueConversion`, `OptionReader`), so a
/// sender reads the same refusal a bus client gets, as a `PushRejection`.
enum PushRequests {
    /// Event `start` on a kind's push-to-start token: attributes, content-state, `stale-date`,
    /// `relevance-score`, `input-push-token` and `input-push-channel`.
    static func start(_ message: APSMessage, kind: String) throws(PushRejection) -> StartRequest {
        let attributes = try values(message.attributes, what: "attributes")
        let state = try values(message.contentState, what: "state")
        let options = StartOptions(staleAt: try time(message.staleDate, "Start", "stale-at"),
                                   relevance: try number(message.relevanceScore, "Start", "relevance"))
        var channel: String?
        if let asked = message.inputPushChannel {
            channel = try text(asked, "Start", "push-channel")
            guard PushToken.isValidChannel(asked) else {
                throw invalid("Start option \"push-channel\": expected 1 to 64 of [A-Za-z0-9_.-], got string \"\(asked)\"")
            }
        }
        return StartRequest(kind: kind, attributes: attributes, state: state, options: options,
                            pushType: message.inputPushToken ? "token" : nil, pushChannel: channel)
    }

    /// Event `update`: content-state, `stale-date`, `relevance-score` and the alert (its
    /// sound `default` is the desktop's message sound).
    static func update(_ message: APSMessage) throws(PushRejection) -> UpdateRequest {
        let state = try values(message.contentState, what: "state")
        let sound = message.alert?.sound.map { $0 == "default" ? "message-new-instant" : $0 }
        let options = UpdateOptions(staleAt: try time(message.staleDate, "Update", "stale-at"),
                                    relevance: try number(message.relevanceScore, "Update", "relevance"),
                                    alertTitle: try message.alert?.title.map { (title) throws(PushRejection) in
                                        try text(title, "Update", "alert-title")
                                    },
                                    alertBody: try message.alert?.body.map { (body) throws(PushRejection) in
                                        try text(body, "Update", "alert-body")
                                    },
                                    alertSound: try sound.map { (sound) throws(PushRejection) in try text(sound, "Update", "alert-sound") })
        return UpdateRequest(state: state, options: options)
    }

    /// Event `end`: content-state, and `dismissal-date` (a time, or at once when 0 or earlier).
    static func end(_ message: APSMessage) throws(PushRejection) -> EndRequest {
        let state = try values(message.contentState, what: "state")
        var options = EndOptions()
        if let dismissal = message.dismissalDate {
            if dismissal > 0 { options.dismissAt = try time(dismissal, "End", "dismiss-at") } else { options.dismissal = "immediate" }
        }
        return EndRequest(state: state, options: options)
    }

    /// JSON scalars as model values (null, arrays and objects are left out, as a bus client
    /// cannot send them); keys and strings checked as the bus checks them.
    private static func values(_ json: [String: JSONValue], what: String) throws(PushRejection) -> [String: Value] {
        var result: [String: Value] = [:]
        for (key, value) in json {
            let role = "\(what) key \(Quoted.text(key))"
            switch value {
            case .null, .array, .object: continue
            default: break
            }
            if let problem = BusText.problem(key, role: role) { throw invalid(problem) }
            switch value {
            case .string(let s):
                if let problem = BusText.problem(s, role: role) { throw invalid(problem) }
                result[key] = .string(s)
            case .bool(let b): result[key] = .bool(b)
            case .double(let d):
                guard d.isFinite else { throw invalid("\(role): expected a finite number, got double \(d)") }
                result[key] = .double(d)
            case .int(let i): result[key] = .int(i)
            case .null, .array, .object: continue
            }
        }
        return result
    }

    /// Unix seconds after 1970 and before 10000 (`OptionReader.unixTime`).
    private static func time(_ seconds: Double?, _ method: String, _ key: String) throws(PushRejection) -> UnixTime? {
        guard let seconds else { return nil }
        guard seconds.isFinite else {
            throw invalid("\(method) option \(Quoted.text(key)): expected unix seconds (an integer), got double \(seconds)")
        }
        guard seconds > 0, InputLimits.isTime(seconds) else {
            throw invalid("\(method) option \(Quoted.text(key)): expected unix seconds after 1970 and before 10000 "
                          + "(1 to 253402300799), got double \(seconds)")
        }
        return seconds
    }

    /// A finite number (`OptionReader.number`).
    private static func number(_ value: Double?, _ method: String, _ key: String) throws(PushRejection) -> Double? {
        guard let value else { return nil }
        guard value.isFinite else { throw invalid("\(method) option \(Quoted.text(key)): expected a number, got double \(value)") }
        return value
    }

    /// A string fit for the bus (`OptionReader.string`).
    private static func text(_ value: String, _ method: String, _ key: String) throws(PushRejection) -> String {
        if let problem = BusText.problem(value, role: "\(method) option \(Quoted.text(key))") { throw invalid(problem) }
        return value
    }

    private static func invalid(_ message: String) -> PushRejection {
        PushRejection("InvalidArgs", message)
    }
}
