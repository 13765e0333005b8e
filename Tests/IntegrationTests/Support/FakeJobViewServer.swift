import DBus
import Foundation
import TestSupport

/// A stand-in for Plasma's job server (`org.kde.JobViewServer`, `org.kde.JobViewServerV2`):
/// it records every requestView and every JobViewV2/V3 call per job, and can play a user
/// pressing a job's cancel button (the `cancelRequested` signal). Own loop, own thread.
final class FakeJobViewServer: @unchecked Sendable {
    /// One requestView as received, and the job it made.
    struct Request: Equatable {
        let appName: String
        let capabilities: Int32
        let hints: [String: DBusValue]
        let path: String
    }

    /// One call on a job view: its member and arguments.
    struct JobCall: Equatable {
        let member: String
        let arguments: [DBusValue]
    }

    private let lock = NSLock()
    private var requestLog: [Request] = []
    private var jobCalls: [String: [JobCall]] = [:]
    private var lifetime: FakeServerLifetime?

    init(bus: PrivateBus) throws {
        let owner = WeakReference(self)
        lifetime = try FakeServerLifetime(bus: bus) { connection, objects in
            try objects.export("/JobViewServer", [Self.serverInterface(owner, objects)])
            _ = try connection.requestName("org.kde.JobViewServer", flags: [.doNotQueue])
        }
        _ = bus.waitForOwner("org.kde.JobViewServer")
    }

    /// The server's table. Every handler reaches the fake only through `owner` (weak), so a
    /// call that arrives while the fake is being freed (its `deinit` waits for this thread)
    /// gets an error instead of reading a destroyed object (issue 20).
    private static func serverInterface(_ owner: WeakReference<FakeJobViewServer>, _ objects: DBusObjectServer) -> DBusInterface {
        DBusInterface(name: "org.kde.JobViewServerV2", methods: [
            DBusMethod("requestView", inputs: [DBusArgument("desktopEntry", "s"), DBusArgument("capabilities", "i"),
                                               DBusArgument("hints", "a{sv}")],
                       outputs: [DBusArgument("trackerPath", "o")]) { [weak objects] call throws(DBusError) in
                guard let server = owner.value, let objects else { throw .failed("the job server is stopping") }
                return try server.requestView(call, objects)
            },
        ])
    }

    /// Records a requestView and exports the job it makes (on the server thread, inside the call).
    private func requestView(_ call: DBusMethodCall, _ objects: DBusObjectServer) throws(DBusError) -> [DBusValue] {
        let arguments = call.arguments
        lock.lock()
        let path = "/org/kde/notificationmanager/jobs/JobView_\(requestLog.count + 1)"
        requestLog.append(Request(appName: arguments[0].string ?? "",
                                  capabilities: Int32(arguments[1].integer ?? -1),
                                  hints: arguments[2].vardict ?? [:], path: path))
        jobCalls[path] = []
        lock.unlock()
        try objects.export(path, Self.jobInterfaces(WeakReference(self), path: path))  // on the server thread, inside a call
        return [.objectPath(path)]
    }

    private static func jobInterfaces(_ owner: WeakReference<FakeJobViewServer>, path: String) -> [DBusInterface] {
        let record = { (member: String, call: DBusMethodCall) -> [DBusValue] in
            owner.value?.record(member, call, on: path)
            return []
        }
        let amount = [DBusArgument("amount", "t"), DBusArgument("unit", "s")]
        let v3 = DBusInterface(name: "org.kde.JobViewV3", methods: [
            DBusMethod("update", inputs: [DBusArgument("properties", "a{sv}")]) { record("update", $0) },
        ])
        return [v3, DBusInterface(name: "org.kde.JobViewV2", methods: [
            DBusMethod("setTotalAmount", inputs: amount) { record("setTotalAmount", $0) },
            DBusMethod("setProcessedAmount", inputs: amount) { record("setProcessedAmount", $0) },
            DBusMethod("terminate", inputs: [DBusArgument("errorMessage", "s")]) { record("terminate", $0) },
            DBusMethod("setSuspended", inputs: [DBusArgument("suspended", "b")]) { record("setSuspended", $0) },
            DBusMethod("setPercent", inputs: [DBusArgument("percent", "u")]) { record("setPercent", $0) },
            DBusMethod("setInfoMessage", inputs: [DBusArgument("message", "s")]) { record("setInfoMessage", $0) },
            DBusMethod("setDescriptionField", inputs: [DBusArgument("number", "u"), DBusArgument("name", "s"),
                                                       DBusArgument("value", "s")],
                       outputs: [DBusArgument("res", "b")]) { call in
                _ = record("setDescriptionField", call)
                return [.boolean(true)]
            },
        ], signals: [DBusSignal("cancelRequested", [])])]
    }

    private func record(_ member: String, _ call: DBusMethodCall, on path: String) {
        lock.lock()
        jobCalls[path, default: []].append(JobCall(member: member, arguments: call.arguments))
        lock.unlock()
    }

    /// Every requestView so far.
    var requests: [Request] { lock.lock(); defer { lock.unlock() }; return requestLog }

    /// The calls made on the job at `path` so far.
    func calls(on path: String) -> [JobCall] { lock.lock(); defer { lock.unlock() }; return jobCalls[path] ?? [] }

    /// The last percent set on the job at `path`.
    func percent(of path: String) -> Int64? {
        calls(on: path).last { $0.member == "setPercent" }?.arguments.first?.integer
    }

    /// Plays a user pressing the cancel button of the job at `path`.
    func pressCancel(on path: String) {
        lifetime?.withObjects { try? $0.emit(path: path, interface: "org.kde.JobViewV2", signal: "cancelRequested", []) }
    }

    /// A barrier: true once every job call the daemon sent before it answered a Ping sent now
    /// has been recorded.
    func syncWithDaemon() -> Bool { lifetime?.syncWithDaemon() ?? false }

    /// Leaves the bus, as plasmashell exiting.
    func stop() { lifetime?.stop() }

    deinit { stop() }
}

