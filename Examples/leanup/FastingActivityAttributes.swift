import LiveActivityKit

/// A fast of LeanUp, as its iOS app declares it.
struct FastingActivityAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        var elapsedSeconds: Int
        var progress: Double
        var isEatingWindow: Bool
    }

    var fastingHours: Int
    var startTime: Date
    var protocolName: String
}

extension FastingActivityAttributes.ContentState {
    /// The state of a fast of `hours` started at `start`, at `now`.
    init(hours: Int, start: Date, now: Date) {
        let elapsed = max(0, Int(now.timeIntervalSince(start)))
        let goal = Double(hours * 3600)
        self.init(elapsedSeconds: elapsed, progress: min(1, Double(elapsed) / goal), isEatingWindow: Double(elapsed) >= goal)
    }
}

/// The protocols of the app: 16:8, 18:6 and OMAD (23:1).
enum FastingProtocol: String, CaseIterable {
    case sixteenEight = "16:8", eighteenSix = "18:6", omad = "OMAD"

    var fastingHours: Int {
        switch self {
        case .sixteenEight: 16
        case .eighteenSix: 18
        case .omad: 23
        }
    }

    init?(argument: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == argument.lowercased() }) else { return nil }
        self = match
    }
}

/// The designed card: the daemon counts the fast from `startTime` and switches to the eating
/// window at `fastingHours` with an alert; the app's own minute updates carry its state.
enum FastingKindFile {
    static let json = """
    {
      "name": "FastingActivityAttributes",
      "display-name": "Fasting",
      "icon": "appointment-soon",
      "attributes": {
        "fastingHours": { "type": "integer", "min": 1, "max": 168, "required": true },
        "startTime": { "type": "time", "required": true },
        "protocolName": { "type": "string" }
      },
      "state": {
        "elapsedSeconds": { "type": "integer", "min": 0 },
        "progress": { "type": "number", "min": 0, "max": 1 },
        "isEatingWindow": { "type": "boolean" }
      },
      "timer": {
        "start": "startTime",
        "duration": { "hours": "fastingHours" },
        "counts": "up",
        "on-expiry": { "action": "stay" }
      },
      "phases": [
        { "name": "fasting", "label": "Fasting", "duration": { "hours": "fastingHours" } },
        { "name": "eating", "label": "Eating window", "duration": { "hours": "24 - fastingHours" },
          "alert": { "title": "Fasting goal reached", "body": "You fasted {goal|duration}.", "sound": "complete" },
          "templates": { "body": "Goal of {goal|duration} reached · fasted {elapsed|h:mm}", "compact-leading": "🍽" } }
      ],
      "progress": ["timer"],
      "templates": {
        "title": "{phase} · {attr.protocolName}",
        "body": "{elapsed|duration} of {goal|duration} · {progress}[ · goal at {end|clock}]",
        "compact-leading": "⏳",
        "compact-trailing": "{elapsed|h:mm}",
        "minimal": "🍽"
      },
      "ended-templates": { "title": "Fast {reason}", "body": "Fasted {elapsed|duration} of {goal|duration}" },
      "buttons": [ { "action": "complete", "label": "End fast" } ]
    }

    """
}
