import LiveActivityKit

/// The designed card of a focus session: the daemon counts down from the attributes, ends
/// the session as completed at zero with an alert, and shows Complete, Cancel and +5 min.
/// Installed into the user's kind directory at start-up; the daemon reads it without a restart.
enum FocusKindFile {
    static let json = """
    {
      "name": "FocusSessionAttributes",
      "display-name": "Focus",
      "icon": "alarm-symbolic",
      "attributes": {
        "sessionType": { "type": "string", "allowed": ["Pomodoro", "Deep Work", "Flow State"] },
        "minutes": { "type": "integer", "min": 1, "max": 1440, "required": true },
        "startTime": { "type": "time", "default": "now" }
      },
      "state": {
        "progress.phase": { "type": "string", "allowed": ["focusing", "completed", "cancelled"] },
        "progress.completedToday": { "type": "integer", "min": 0 },
        "sessionID": { "type": "string" },
        "startedAt": { "type": "time" },
        "plannedDuration": { "type": "number", "min": 0 },
        "task": { "type": "string" }
      },
      "timer": {
        "start": "startTime",
        "duration": { "minutes": "minutes" },
        "counts": "down",
        "on-expiry": {
          "action": "end",
          "reason": "completed",
          "alert": { "title": "Focus session completed!", "body": "{goal|duration} of focus[ on {state.task}]", "sound": "complete" }
        }
      },
      "progress": ["timer"],
      "templates": {
        "title": "{attr.sessionType}[ · {state.task}]",
        "body": "{remaining|timer} left · ends at {end|clock}",
        "compact-leading": "⏱",
        "compact-trailing": "{remaining|m:ss}",
        "minimal": "🎯"
      },
      "ended-templates": { "body": "{reason} · {elapsed|duration} focused" },
      "buttons": [
        { "action": "complete", "label": "Complete" },
        { "action": "cancel", "label": "Cancel" },
        { "action": "extend", "seconds": 300, "label": "+5 min" }
      ]
    }

    """

    static func install() {
        do {
            try ActivityKindFile.install(json, for: FocusSessionAttributes.self)
        } catch {
            print("focusflow: could not install the kind file (\(error)); the card shows the plain layout")
        }
    }
}
