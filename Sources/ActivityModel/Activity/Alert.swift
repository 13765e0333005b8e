/// A pop-up with optional sound (ActivityKit's `AlertConfiguration`).
public struct Alert: Codable, Equatable, Sendable {
    public var title: String
    public var body: String
    /// A freedesktop sound name such as `complete` or `alarm-clock-elapsed`.
    public var sound: String?

    public init(title: String, body: String = "", sound: String? = nil) {
        self.title = title
        self.body = body
        self.sound = sound
    }
}
