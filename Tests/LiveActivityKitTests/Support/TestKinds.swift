import Foundation
import LiveActivityKit

/// A countdown of a few seconds with a Complete button, and the kind file that draws it:
/// the daemon ends it as completed at zero, so tests see the daemon's own changes.
struct CountdownAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        struct Detail: Codable, Hashable {
            var note: String
            var steps: [Int]
        }

        var detail: Detail
        var at: Date
    }

    var seconds: Int
    var label: String

    static let kindFile = """
    {
      "name": "CountdownAttributes",
      "attributes": { "seconds": { "type": "integer", "min": 1, "required": true }, "label": { "type": "string" } },
      "state": {
        "detail.note": { "type": "string" },
        "detail.steps.0": { "type": "integer" }, "detail.steps.1": { "type": "integer" }, "detail.steps.2": { "type": "integer" },
        "at": { "type": "time" }
      },
      "timer": { "duration": { "seconds": "seconds" }, "counts": "down",
                 "on-expiry": { "action": "end", "reason": "completed" } },
      "templates": { "title": "{attr.label}", "body": "{remaining|timer} left[ · {state.detail.note}]" },
      "buttons": [ { "action": "complete", "label": "Complete" } ]
    }
    """
}

/// An attributes type with no kind file anywhere: its cards use the `generic` fallback.
struct PizzaDeliveryAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var driverName: String
        var stopsAway: Int
        var onTheWay: Bool
    }

    var orderNumber: String
}
