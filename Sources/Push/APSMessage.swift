/// One ActivityKit push payload (`{"aps": {…}}`), read and checked for shape, as APNs would
/// deliver it to an activity. Values are checked against the activity's kind later, by the
/// same code as the bus methods; this type only knows the `aps` dictionary.
public struct APSMessage: Equatable, Sendable {
    /// `aps.event`.
    public enum Event: String, Sendable, CaseIterable {
        case start, update, end
    }

    /// An `aps.alert`: what the card pops up with (Update's alert options).
    public struct Alert: Equatable, Sendable {
        public var title: String?
        public var body: String?
        public var sound: String?

        public init(title: String? = nil, body: String? = nil, sound: String? = nil) {
            self.title = title
            self.body = body
            self.sound = sound
        }
    }

    public var event: Event
    /// `aps.timestamp`, unix seconds: a message older than the last one applied is ignored.
    public var timestamp: Double
    /// `aps.content-state`: the state keys to merge (scalars only, as on the bus).
    public var contentState: [String: JSONValue]
    public var staleDate: Double?
    public var dismissalDate: Double?
    public var relevanceScore: Double?
    public var alert: Alert?
    /// `aps.attributes-type`: the kind a start message asks for.
    public var attributesType: String?
    public var attributes: [String: JSONValue]
    /// `aps.input-push-token`: give the started activity an update token of its own.
    public var inputPushToken: Bool
    /// `aps.input-push-channel`: the started activity follows this broadcast channel.
    public var inputPushChannel: String?
    /// Keys present but not used for this event (logged, not refused: APNs ignores them too).
    public var ignoredKeys: [String]

    public init(event: Event, timestamp: Double, contentState: [String: JSONValue] = [:], staleDate: Double? = nil,
                dismissalDate: Double? = nil, relevanceScore: Double? = nil, alert: Alert? = nil,
                attributesType: String? = nil, attributes: [String: JSONValue] = [:], inputPushToken: Bool = false,
                inputPushChannel: String? = nil, ignoredKeys: [String] = []) {
        self.event = event
        self.timestamp = timestamp
        self.contentState = contentState
        self.staleDate = staleDate
        self.dismissalDate = dismissalDate
        self.relevanceScore = relevanceScore
        self.alert = alert
        self.attributesType = attributesType
        self.attributes = attributes
        self.inputPushToken = inputPushToken
        self.inputPushChannel = inputPushChannel
        self.ignoredKeys = ignoredKeys
    }
}

/// Why a push message was refused: the D-Bus error name a bus call would get (`InvalidArgs`,
/// `PayloadTooLarge`, `UnknownKind`, …) and a message saying what was wrong and what is expected.
public struct PushRejection: Error, Equatable, Sendable, CustomStringConvertible {
    public let name: String
    public let message: String

    public init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }

    static func invalid(_ message: String) -> PushRejection { PushRejection("InvalidArgs", message) }

    /// `Name: message`, as `PushReceived` and the log carry it.
    public var description: String { "\(name): \(message)" }
}
