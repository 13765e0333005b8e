import LiveActivityKit

/// The focus session of FocusFlow, as its iOS app declares it: static attributes (the kind of
/// session, its length and start) and a nested content state.
struct FocusSessionAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        /// What the session is about and how far it got.
        var progress: SessionProgress
        var sessionID: UUID
        var startedAt: Date
        var plannedDuration: TimeInterval
        var task: String?
    }

    var sessionType: SessionType
    var minutes: Int
    var startTime: Date
}

/// The three sessions of the app.
enum SessionType: String, Codable, Hashable, CaseIterable {
    case pomodoro = "Pomodoro", deepWork = "Deep Work", flowState = "Flow State"

    var minutes: Int {
        switch self {
        case .pomodoro: 25
        case .deepWork: 45
        case .flowState: 90
        }
    }

    /// `pomodoro`, `deep-work`, `flow-state` on the command line.
    init?(argument: String) {
        switch argument.lowercased() {
        case "pomodoro": self = .pomodoro
        case "deep-work", "deepwork", "deep": self = .deepWork
        case "flow-state", "flowstate", "flow": self = .flowState
        default: return nil
        }
    }
}

/// A nested struct of the content state.
struct SessionProgress: Codable, Hashable {
    enum Phase: String, Codable, Hashable { case focusing, completed, cancelled }
    var phase: Phase
    var completedToday: Int
}
