import DBus
@testable import LiveActivitiesService

/// The manager's calls as a test writes them, with the D-Bus values a client sends: each is
/// decoded as `ManagerInterface` decodes it (the same requests and the same errors), then
/// handed to the service, so the tests exercise the bus's checks without a bus.
extension ActivityService {
    func start(kind: String, attributes: [String: DBusValue], state: [String: DBusValue],
               options: [String: DBusValue], sender: String? = nil) throws(DBusError) -> String {
        try start(StartRequest(kind: kind, attributes: attributes, state: state, options: options, method: "Start")
            .calledBy(app: settings.callerApps?.flatpakAppID(of: sender)))
    }

    func update(id: String, state: [String: DBusValue], options: [String: DBusValue]) throws(DBusError) {
        try update(id: id, UpdateRequest(state: state, options: options))
    }

    func end(id: String, state: [String: DBusValue], options: [String: DBusValue]) throws(DBusError) {
        try end(id: id, EndRequest(state: state, options: options))
    }

    func toggle(kind: String, attributes: [String: DBusValue], state: [String: DBusValue],
                options: [String: DBusValue], sender: String? = nil) throws(DBusError) -> (String, Bool) {
        try toggle(StartRequest(kind: kind, attributes: attributes, state: state, options: options, method: "Toggle")
            .calledBy(app: settings.callerApps?.flatpakAppID(of: sender)))
    }
}
