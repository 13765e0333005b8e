import DBus
import Foundation
import TestSupport

/// Small helpers for the timer tests: the wall clock as the daemon reads it, `m:ss` text as
/// seconds, and the Notify calls and PropertiesChanged signals of one activity.
enum Clock {
    /// Unix seconds now, whole.
    static var now: Int64 { Int64(Date().timeIntervalSince1970) }
}

/// Seconds shown by an `m:ss` (or `h:mm:ss`) text such as `24:58`; nil for other text.
func shownSeconds(_ text: String?) -> Int? {
    guard let text else { return nil }
    let parts = text.split(separator: ":").map { Int($0) }
    guard parts.count >= 2, parts.allSatisfy({ $0 != nil }) else { return nil }
    return parts.compactMap { $0 }.reduce(0) { $0 * 60 + $1 }
}

extension RecordingNotificationServer.NotifyCall {
    /// The action keys of the flat actions list (key, label, key, label…).
    var actionKeys: [String] { stride(from: 0, to: actions.count, by: 2).map { actions[$0] } }

    /// The key of the button labelled `label`.
    func actionKey(labelled label: String) -> String? {
        stride(from: 0, to: actions.count - 1, by: 2).first { actions[$0 + 1] == label }.map { actions[$0] }
    }

    /// Whether the call is a routine update: silent (`suppress-sound`) and without `sound-name`.
    var isRoutine: Bool { hints["suppress-sound"] == .boolean(true) && hints["sound-name"] == nil }
}

extension DaemonFixture {
    /// The Notify calls whose summary or body mentions `text`.
    func notifies(mentioning text: String) -> [RecordingNotificationServer.NotifyCall] {
        recorder?.calls.filter { $0.summary.contains(text) || $0.body.contains(text) } ?? []
    }

    /// The Notify calls of the card that first showed `text` (it keeps its notification id).
    func card(showing text: String) -> [RecordingNotificationServer.NotifyCall] {
        guard let first = notifies(mentioning: text).first else { return [] }
        return notifies(forNotification: first.assignedID)
    }
}

extension TestClient {
    /// The activity object path of `id`.
    static func activityPath(_ id: String) -> String { BusNames.activityPath(id) }

    /// PropertiesChanged signals received for activity `id`, as their changed-properties dicts.
    func propertiesChanged(_ id: String) -> [[String: DBusValue]] {
        signals.filter { $0.member == "PropertiesChanged" && $0.path == Self.activityPath(id) }
            .compactMap { (try? $0.arguments())?[1].vardict }
    }

    /// Toggle with plain dictionaries; returns the id and whether it started.
    func toggle(_ kind: String, attributes: [String: DBusValue] = [:], options: [String: DBusValue] = [:]) throws -> (String, Bool) {
        let reply = try call("Toggle", [.string(kind), .vardict(attributes), .vardict([:]), .vardict(options)])
        return (reply.first?.string ?? "", reply.count > 1 && reply[1] == .boolean(true))
    }

}
