/// Why a Live Activity could not be started (or, from the `throwing…` variants, updated or
/// ended): ActivityKit's error codes plus Linux ones, each with the daemon's own message.
///
/// ActivityKit declares an enum of plain cases; here it is a struct with the same static
/// members, so `catch ActivityAuthorizationError.attributesTooLarge` and `switch error { case
/// .denied: … }` port unchanged while the error also carries a readable `failureReason`.
/// Two errors are equal when their codes are.
public struct ActivityAuthorizationError: Error, Equatable, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The kind of failure.
    public enum Code: String, Sendable, CaseIterable {
        case attributesTooLarge, denied, globalMaximumExceeded, malformedActivityIdentifier
        case missingProcessIdentifier, persistenceFailure, reconnectNotPermitted, targetMaximumExceeded
        case unentitled, unsupported, unsupportedTarget, visibility
        /// Linux: no `liveactivityd` answers on the session bus (or there is no session bus).
        case daemonUnavailable
        /// Linux: the daemon refused the content (a key its kind does not declare, a value of the
        /// wrong type or range), or the content could not be encoded; the message says which key.
        case invalidContent
        /// Linux: the activity has ended or gone, so it takes no more updates (from `throwingUpdate`).
        case activityNotActive
    }

    public let code: Code
    /// What went wrong, for people: the daemon's message (`attributes and state are 5120 bytes;
    /// the limit is 4096`).
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public static let attributesTooLarge = Self(.attributesTooLarge, "attributes and state exceed 4 KB")
    public static let denied = Self(.denied, "Live Activities are switched off (liveactivity enabled on)")
    public static let globalMaximumExceeded = Self(.globalMaximumExceeded, "too many live activities")
    public static let malformedActivityIdentifier = Self(.malformedActivityIdentifier, "malformed activity id")
    public static let missingProcessIdentifier = Self(.missingProcessIdentifier, "missing process identifier")
    public static let persistenceFailure = Self(.persistenceFailure, "the daemon could not save the activity")
    public static let reconnectNotPermitted = Self(.reconnectNotPermitted, "reconnect not permitted")
    public static let targetMaximumExceeded = Self(.targetMaximumExceeded, "too many activities for this app")
    public static let unentitled = Self(.unentitled, "not entitled")
    public static let unsupported = Self(.unsupported, "not supported by the daemon")
    public static let unsupportedTarget = Self(.unsupportedTarget, "unsupported target")
    public static let visibility = Self(.visibility, "the app is not visible")
    public static let daemonUnavailable = Self(.daemonUnavailable, "liveactivityd is not running on the session bus")
    public static let invalidContent = Self(.invalidContent, "the daemon refused the content")
    public static let activityNotActive = Self(.activityNotActive, "the activity is no longer active")

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Pattern matching by code, so `case .denied:` matches whatever the message.
    public static func ~= (pattern: Self, value: any Error) -> Bool {
        (value as? Self)?.code == pattern.code
    }

    public var description: String { "\(code.rawValue): \(message)" }
    public var failureReason: String? { message }
    public var errorDescription: String? { description }
    public var errorCode: Int { Code.allCases.firstIndex(of: code) ?? 0 }
    public static var errorDomain: String { "LiveActivityKit.ActivityAuthorizationError" }
}
