import DBus
import Idle

/// The manager interface of DESIGN.md, declared once as a table: each handler decodes its
/// arguments, makes one call on the service, and encodes the reply.
enum ManagerInterface {
    static func make(_ service: ActivityService) -> DBusInterface {
        let startArgs = [DBusArgument("kind", "s"), DBusArgument("attributes", "a{sv}"),
                         DBusArgument("state", "a{sv}"), DBusArgument("options", "a{sv}")]
        let idStateOptions = [DBusArgument("id", "s"), DBusArgument("state", "a{sv}"),
                              DBusArgument("options", "a{sv}")]
        return DBusInterface(
            name: BusNames.managerInterface,
            methods: [
                DBusMethod("Start", inputs: startArgs,
                           outputs: [DBusArgument("id", "s"), DBusArgument("path", "o")]) { call throws(DBusError) in
                    let a = try Arguments(call)
                    let id = try service.start(StartRequest(kind: a.string(0), attributes: a.dict(1), state: a.dict(2),
                                                            options: a.dict(3), method: "Start")
                        .calledBy(app: service.settings.callerApps?.flatpakAppID(of: call.sender)))
                    return [.string(id), .objectPath(BusNames.activityPath(id))]
                },
                DBusMethod("Update", inputs: idStateOptions) { call throws(DBusError) in
                    let a = try Arguments(call)
                    try service.update(id: a.string(0), UpdateRequest(state: a.dict(1), options: a.dict(2)))
                    return []
                },
                DBusMethod("End", inputs: idStateOptions) { call throws(DBusError) in
                    let a = try Arguments(call)
                    try service.end(id: a.string(0), EndRequest(state: a.dict(1), options: a.dict(2)))
                    return []
                },
                DBusMethod("Get", inputs: [DBusArgument("id", "s")],
                           outputs: [DBusArgument("properties", "a{sv}")]) { call throws(DBusError) in
                    let a = try Arguments(call)
                    return [try service.properties(id: a.string(0))]
                },
                DBusMethod("List", outputs: [DBusArgument("activities", "a(ssso)")]) { _ throws(DBusError) in
                    let rows = service.list().map { row in
                        DBusValue.structure([.string(row.id), .string(row.kind), .string(row.status),
                                             .objectPath(BusNames.activityPath(row.id))])
                    }
                    return [.array(elementSignature: "(ssso)", rows)]
                },
                DBusMethod("Toggle", inputs: startArgs,
                           outputs: [DBusArgument("id", "s"), DBusArgument("started", "b")]) { call throws(DBusError) in
                    let a = try Arguments(call)
                    let (id, started) = try service.toggle(StartRequest(kind: a.string(0), attributes: a.dict(1), state: a.dict(2),
                                                                        options: a.dict(3), method: "Toggle")
                        .calledBy(app: service.settings.callerApps?.flatpakAppID(of: call.sender)))
                    return [.string(id), .boolean(started)]
                },
                DBusMethod("Pause", inputs: [DBusArgument("id", "s")]) { call throws(DBusError) in
                    try service.pause(id: Arguments(call).string(0))
                    return []
                },
                DBusMethod("Resume", inputs: [DBusArgument("id", "s")]) { call throws(DBusError) in
                    try service.resume(id: Arguments(call).string(0))
                    return []
                },
                DBusMethod("PushToStartToken", inputs: [DBusArgument("kind", "s")],
                           outputs: [DBusArgument("token", "s")]) { call throws(DBusError) in
                    [.string(try service.pushToStartToken(kind: Arguments(call).string(0)))]
                },
                DBusMethod("Extend", inputs: [DBusArgument("id", "s"), DBusArgument("seconds", "x")]) { call throws(DBusError) in
                    let a = try Arguments(call)
                    try service.extend(id: a.string(0), seconds: a.int64(1))
                    return []
                },
                DBusMethod("InvokeAction", inputs: [DBusArgument("id", "s"), DBusArgument("action", "s")]) { call throws(DBusError) in
                    let a = try Arguments(call)
                    try service.invokeAction(id: a.string(0), action: a.string(1))
                    return []
                },
            ],
            properties: [
                DBusProperty("Enabled", "b", access: .readwrite, get: { .boolean(service.enabled) },
                             set: { value throws(DBusError) in
                                 guard case .boolean(let on) = value.unwrapped else {
                                     throw .invalidArgs("Enabled: expected a boolean, got \(value.unwrapped.typeDescription)")
                                 }
                                 try service.setEnabled(on)
                             }),
                DBusProperty("CompactText", "s", get: { .string(service.compactText) }),
                DBusProperty("ActiveCount", "u", get: { .uint32(UInt32(service.activeCount)) }),
                DBusProperty("Kinds", "as", get: { .array(elementSignature: "s", service.kindNames.map { .string($0) }) }),
                DBusProperty("NotificationServer", "s", get: { .string(service.notificationServer) }),
                DBusProperty("StorageStatus", "s", get: { .string(service.storageStatus) }),
                DBusProperty("PushStatus", "s", get: { .string(service.push.status) }),
                DBusProperty("IdleSource", "s", get: { .string(service.focus.idleSourceName) }),
                DBusProperty("Version", "s", emitsChange: .const, get: { .string(LiveActivitiesVersion.current) }),
            ],
            signals: [
                DBusSignal("ActivityStarted", [DBusArgument("id", "s"), DBusArgument("kind", "s")]),
                DBusSignal("ActivityUpdated", [DBusArgument("id", "s")]),
                DBusSignal("ActivityEnded", [DBusArgument("id", "s"), DBusArgument("reason", "s")]),
                DBusSignal("StatusChanged", [DBusArgument("id", "s"), DBusArgument("status", "s")]),
                DBusSignal("ActionInvoked", [DBusArgument("id", "s"), DBusArgument("action", "s")]),
                DBusSignal("PushReceived", [DBusArgument("id", "s"), DBusArgument("event", "s"),
                                            DBusArgument("applied", "b"), DBusArgument("reason", "s")]),
            ])
    }
}

/// Typed access to a call's arguments, whose signature the object server has already checked.
struct Arguments {
    let values: [DBusValue]

    init(_ call: DBusMethodCall) throws(DBusError) { values = call.arguments }

    func string(_ index: Int) throws(DBusError) -> String {
        guard index < values.count, let s = values[index].string else { throw .invalidArgs("argument \(index + 1): expected a string") }
        return s
    }

    func int64(_ index: Int) throws(DBusError) -> Int64 {
        guard index < values.count, let i = values[index].integer else { throw .invalidArgs("argument \(index + 1): expected an integer") }
        return i
    }

    func dict(_ index: Int) throws(DBusError) -> [String: DBusValue] {
        guard index < values.count, let d = values[index].vardict else { throw .invalidArgs("argument \(index + 1): expected a{sv}") }
        return d
    }
}
