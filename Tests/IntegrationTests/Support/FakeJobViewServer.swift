import DBus
import Foundation
import TestSupport

/// A stand-in for Plasma's job server (`org.kde.JobViewServer`, `org.kde.JobViewServerV2`):
/// it records every requestView and every JobViewV2 call per job, and can play a user
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
    private var loopBox: JobLoopBox?
    private let finished = DispatchSemaphore(value: 0)

    init(bus: PrivateBus) throws {
        let ready = DispatchSemaphore(value: 0)
        let failure = JobServerError()
        let address = bus.address
        let finished = finished
        let thread = Thread { [weak self] in
            do {
                let loop = try EventLoop()
                let connection = try DBusConnection(address: address)
                connection.attach(to: loop)
                let objects = DBusObjectServer(connection: connection)
                guard let self else { return }
                try objects.export("/JobViewServer", [self.serverInterface(objects)])
                _ = try connection.requestName("org.kde.JobViewServer", flags: [.doNotQueue])
                self.setLoop(JobLoopBox(loop: loop, objects: objects, connection: connection))
                ready.signal()
                loop.run()
            } catch {
                failure.message = "\(error)"
                ready.signal()
            }
            finished.signal()
        }
        thread.start()
        ready.wait()
        if let message = failure.message { throw JobServerError.Failed(message: message) }
        _ = bus.waitForOwner("org.kde.JobViewServer")
    }

    private func setLoop(_ box: JobLoopBox?) { lock.lock(); loopBox = box; lock.unlock() }

    private func serverInterface(_ objects: DBusObjectServer) -> DBusInterface {
        DBusInterface(name: "org.kde.JobViewServerV2", methods: [
            DBusMethod("requestView", inputs: [DBusArgument("desktopEntry", "s"), DBusArgument("capabilities", "i"),
                                               DBusArgument("hints", "a{sv}")],
                       outputs: [DBusArgument("trackerPath", "o")]) { [unowned self] call throws(DBusError) in
                let arguments = call.arguments
                lock.lock()
                let path = "/org/kde/notificationmanager/jobs/JobView_\(requestLog.count + 1)"
                requestLog.append(Request(appName: arguments[0].string ?? "",
                                          capabilities: Int32(arguments[1].integer ?? -1),
                                          hints: arguments[2].vardict ?? [:], path: path))
                jobCalls[path] = []
                lock.unlock()
                try objects.export(path, [jobInterface(path: path)])
                return [.objectPath(path)]
            },
        ])
    }

    private func jobInterface(path: String) -> DBusInterface {
        let record = { [unowned self] (member: String, call: DBusMethodCall) -> [DBusValue] in
            lock.lock()
            jobCalls[path, default: []].append(JobCall(member: member, arguments: call.arguments))
            lock.unlock()
            return []
        }
        return DBusInterface(name: "org.kde.JobViewV2", methods: [
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
        ], signals: [DBusSignal("cancelRequested", [])])
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
        lock.lock(); let box = loopBox; lock.unlock()
        box?.loop.post { try? box?.objects.emit(path: path, interface: "org.kde.JobViewV2", signal: "cancelRequested", []) }
    }

    /// Leaves the bus, as plasmashell exiting.
    func stop() {
        lock.lock(); let box = loopBox; loopBox = nil; lock.unlock()
        guard let box else { return }
        box.loop.post { box.loop.stop() }
        finished.wait()
    }

    deinit { stop() }
}

/// The server thread's loop objects, reached from the test thread only through `post`.
private struct JobLoopBox: @unchecked Sendable {
    let loop: EventLoop
    let objects: DBusObjectServer
    let connection: DBusConnection
}

/// A failure handed from the server thread to the test thread.
private final class JobServerError: @unchecked Sendable {
    struct Failed: Error { let message: String }
    var message: String?
}
