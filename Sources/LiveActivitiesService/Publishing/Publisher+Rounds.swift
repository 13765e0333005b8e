import ActivityModel
import DBus

/// Where signals are emitted. A round runs once the messages at hand are handled, so a reply
/// is never held up by it and a flood of calls is published in rounds, in order, with one
/// PropertiesChanged per activity and round carrying its latest values (`+Views`). The core
/// queues and paces the rounds (`RoundQueue`) and hands each one here whole. Every event still
/// gets its signal, but each activity is rendered and announced once per round, not once per call.
extension Publisher {
    /// A started activity's object is exported at once (and only here), as its change is
    /// queued for a round, so a client can use the path the reply carries straight away.
    func exportStarted(_ events: [ActivityEvent]) {
        for case .started(let id, _) in events { exportActivityOrLog(id.rawValue) }
    }

    /// The model's events as signals, in their order; then each activity they touched is
    /// re-read once (its properties, card and job), with the alert the events raised for it.
    func apply(_ events: [ActivityEvent], in view: RoundView) {
        var touched: [String] = []
        var alerts: [String: Alert] = [:]
        for event in events {
            let id = event.activityID.rawValue
            switch event {
            case .started(_, let kind):
                emit("ActivityStarted", [.string(id), .string(kind)])
            case .updated:
                emit("ActivityUpdated", [.string(id)])
            case .ended(_, let reason, _):
                emit("ActivityEnded", [.string(id), .string(reason.rawValue)])
            case .statusChanged(_, let status):
                emit("StatusChanged", [.string(id), .string(status.rawValue)])
            case .alert(_, let alert):
                alerts[id] = alert
            case .rendered:
                break
            case .dismissed:
                remove(id)
                continue
            case .actionInvoked(_, let action):
                emit("ActionInvoked", [.string(id), .string(action)])
                continue
            }
            touched.append(id)
        }
        var seen = Set<String>()
        for id in touched where seen.insert(id).inserted && view.contains(id) {
            refresh(id, alert: alerts[id], in: view)
        }
    }

    func emit(_ signal: String, _ arguments: [DBusValue]) {
        do {
            try server.emit(path: BusNames.managerPath, interface: BusNames.managerInterface, signal: signal, arguments)
        } catch {
            Log.error("cannot emit \(signal): \(error.message)")
        }
    }
}
