/// What a desktop tells the sender about one push message (or about a token that died), so a
/// server learns what APNs would have told it: applied, or refused and why, and when a token
/// is unregistered. Published (QoS 1, not retained) on the receipt topic of the message's own
/// topic (`PushTopics.receipt(of:)`), under the desktop's prefix only. A receipt never carries
/// content-state or attributes: only the message's timestamp, its digest, the event, the
/// activity id it was for, and the outcome.
public struct PushReceipt: Equatable, Sendable {
    /// `aps.timestamp` of the message; nil when the message had none readable.
    public var timestamp: Double?
    public var applied: Bool
    /// Empty when applied; else an APNs-like name: `Unregistered`, `BadDeviceToken`,
    /// `PayloadTooLarge`, `Duplicate`, `Stale`, `InvalidArgs`, `UnknownKind`, `NotActive`, …
    public var reason: String
    /// The human text after the reason's name (empty when applied).
    public var detail: String
    /// `start`, `update`, `end`, "" when unreadable, or `unregistered` for a token that died.
    public var event: String
    /// The activity the message was for ("" when none).
    public var activity: String
    /// `PushMessageDigest` of the message's bytes (the sender computes the same to match a
    /// receipt to the message it sent); nil for a token that died.
    public var digest: String?
    /// For a start applied with `input-push-token`: the new activity's update token (the
    /// receipt topic is read only by whoever holds the push-to-start token).
    public var pushToken: String?

    public init(timestamp: Double?, applied: Bool, reason: String, detail: String, event: String, activity: String, digest: String?) {
        self.timestamp = timestamp
        self.applied = applied
        self.reason = reason
        self.detail = detail
        self.event = event
        self.activity = activity
        self.digest = digest
    }

    /// The receipt of a message whose outcome reads `Name: detail` (as `PushReceived` says it)
    /// on `route`. A token or channel nobody holds is `Unregistered` (APNs's 410) on an
    /// activity or channel topic, and `BadDeviceToken` on a push-to-start topic.
    public static func outcome(_ route: PushTopics.Route?, timestamp: Double?, applied: Bool, reason: String,
                               event: String, activity: String, digest: String?) -> PushReceipt {
        var name = ""
        var detail = ""
        if !reason.isEmpty {
            let parts = reason.split(separator: ":", maxSplits: 1)
            name = parts.first.map(String.init) ?? reason
            detail = parts.count > 1 ? String(parts[1].drop { $0 == " " }) : ""
        }
        if name == "NotFound" {
            if case .start? = route { name = "BadDeviceToken" } else { name = "Unregistered" }
        }
        return PushReceipt(timestamp: timestamp, applied: applied, reason: name, detail: withoutValues(detail), event: event,
                           activity: activity, digest: digest)
    }

    /// The detail with every value it quotes after `got` reduced to its type (`got string`,
    /// `got an object`): a refusal names the key and what was expected, never the content sent.
    public static func withoutValues(_ detail: String) -> String {
        var out = ""
        var rest = Substring(detail)
        while let got = Self.find("got ", in: rest) {
            out += rest[..<got.upperBound]
            rest = rest[got.upperBound...]
            let words = rest.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            let first = words.first.map(String.init) ?? ""
            switch first {
            case "an":
                out += "an " + (words.dropFirst().first.map { String($0.prefix { $0.isLetter }) } ?? "")
            case "string", "integer", "number", "boolean", "null":
                out += first
            default:
                out += "a value"
            }
            if let next = Self.find("; ", in: rest) { rest = rest[next.lowerBound...] } else { rest = "" }
        }
        return out + rest
    }

    /// The receipt that says an activity's token is dead: the activity ended at `time`.
    public static func unregistered(activity: String, at time: Double, why: String) -> PushReceipt {
        PushReceipt(timestamp: time, applied: false, reason: "Unregistered", detail: why, event: "unregistered",
                    activity: activity, digest: nil)
    }

    /// The receipt as one line of JSON.
    public var json: String {
        var fields: [String] = []
        fields.append("\"timestamp\":" + (timestamp.map(Self.number) ?? "null"))
        fields.append("\"applied\":\(applied)")
        fields.append("\"reason\":" + Self.quoted(reason))
        fields.append("\"detail\":" + Self.quoted(detail))
        fields.append("\"event\":" + Self.quoted(event))
        fields.append("\"activity\":" + Self.quoted(activity))
        fields.append("\"digest\":" + (digest.map(Self.quoted) ?? "null"))
        if let pushToken { fields.append("\"push-token\":" + Self.quoted(pushToken)) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Where `needle` first occurs in `text` (the Push module does without Foundation).
    private static func find(_ needle: String, in text: Substring) -> Range<Substring.Index>? {
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix(needle) { return index..<text.index(index, offsetBy: needle.count) }
            index = text.index(after: index)
        }
        return nil
    }

    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return value == value.rounded(.down) && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
