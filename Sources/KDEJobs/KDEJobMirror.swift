import DBus
import ServiceSupport

/// Shows every live activity that has progress as a KDE job too, when Plasma's job server
/// (`org.kde.JobViewServer`) is on the bus: a real progress bar in Plasma's notification
/// area and task manager, with a cancel button that ends the activity (`cancelled`).
///
/// Runs on the daemon's own connection and loop and never waits for Plasma: `requestView`
/// is asynchronous and the JobViewV2 updates are sent without asking for a reply. Jobs
/// follow the job server: when it goes away they are forgotten, when it (re)appears every
/// activity with progress gets a new job. A job ends (`terminate`) with its activity.
package final class KDEJobMirror {
    /// One activity's job as far as the server has it.
    private enum Job {
        /// `requestView` was sent; no path yet.
        case requesting
        /// The server made the job at `path`, which now shows `shown`.
        case active(path: String, shown: KDEJobContent)
    }

    private let connection: DBusConnection
    /// The desktop entry `requestView` names (the header's name and icon come in its hints).
    private let desktopEntry: String
    /// What each activity's job should show (nil entries are not kept), while a server is there.
    private var wanted: [String: KDEJobContent] = [:]
    /// The activities updated while no server was there: their content was not computed (most
    /// desktops have no job server, and a tick should not build a job nobody shows). When one
    /// appears, each is asked for again through `onJobChanged`.
    private var unrendered: Set<String> = []
    private var jobs: [String: Job] = [:]
    /// The unique name of the job server, nil while there is none.
    private(set) var serverOwner: String?
    /// Bumped whenever the server changes, so late replies for an old server are dropped.
    private var generation = 0

    /// The user pressed the job's cancel button: (activity id).
    package var onCancel: ((String) -> Void)?
    /// An activity got or lost its job (its card may show differently now).
    package var onJobChanged: ((String) -> Void)?

    package init(connection: DBusConnection, desktopEntry: String = KDEJobNames.desktopEntry) {
        self.connection = connection
        self.desktopEntry = desktopEntry
    }

    /// Starts following the job server: match rules, signal handler, and who owns it now.
    package func start() {
        connection.addMessageHandler { [weak self] message in self?.handle(message) ?? false }
        for rule in ["type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                     + "member='NameOwnerChanged',arg0='\(KDEJobNames.serverName)'",
                     "type='signal',interface='\(KDEJobNames.viewInterface)'"] {
            busCall("AddMatch", [.string(rule)]) { _ in }
        }
        busCall("GetNameOwner", [.string(KDEJobNames.serverName)]) { [weak self] result in
            guard let self, self.serverOwner == nil, case .success(let values) = result,
                  let owner = values.first?.string else { return }
            self.serverAppeared(owner)
        }
    }

    /// Whether a job shows `id` (or is being requested for it): then the card steps aside.
    package func covers(_ id: String) -> Bool {
        jobs[id] != nil && wanted[id] != nil
    }

    /// Makes the job of `id` show `content`; nil ends the job (no progress, or the activity
    /// ended). `content` is read only while a job server is there.
    package func update(id: String, content: @autoclosure () -> KDEJobContent?) {
        guard serverOwner != nil else {
            unrendered.insert(id)
            return
        }
        let content = content()
        guard wanted[id] != content else { return }
        wanted[id] = content
        sync(id)
    }

    /// Ends the job of `id`, if any: the activity is gone.
    package func remove(id: String) {
        unrendered.remove(id)
        guard wanted[id] != nil else { return }
        wanted[id] = nil
        guard serverOwner != nil else { return }
        sync(id)
    }

    // MARK: Talking to the server

    private func sync(_ id: String) {
        let content = wanted[id]
        switch (jobs[id], content) {
        case (nil, nil), (.requesting?, _):
            return
        case (nil, let content?):
            request(id: id, content: content)
        case (.active(let path, _)?, nil):
            jobs[id] = nil
            send(path: path, KDEJobCall(member: "terminate", arguments: [.string("")]))
            onJobChanged?(id)
        case (.active(let path, let shown)?, let content?):
            for call in content.calls(from: shown) { send(path: path, call) }
            jobs[id] = .active(path: path, shown: content)
        }
    }

    private func request(id: String, content: KDEJobContent) {
        guard let owner = serverOwner else { return }
        jobs[id] = .requesting
        let generation = self.generation
        connection.callMethodAsync(destination: owner, path: KDEJobNames.serverPath,
                                   interface: KDEJobNames.serverInterface, member: "requestView",
                                   arguments: [.string(desktopEntry), .int32(KDEJobNames.killable),
                                               .vardict(content.requestHints)]) { [weak self] result in
            self?.viewReceived(id: id, result: result, generation: generation)
        }
    }

    private func viewReceived(id: String, result: DBusConnection.CallResult, generation: Int) {
        guard generation == self.generation else { return }
        guard case .success(let values) = result, case .objectPath(let path)? = values.first?.unwrapped else {
            jobs[id] = nil
            if case .failure(let error) = result { Log.warning("KDE job for \(id): \(error.message)") }
            onJobChanged?(id)
            return
        }
        jobs[id] = .active(path: path, shown: KDEJobContent(title: "", message: "", percent: 0, suspended: false))
        guard let content = wanted[id] else {
            jobs[id] = nil
            send(path: path, KDEJobCall(member: "terminate", arguments: [.string("")]))
            return
        }
        for call in content.calls(from: nil) { send(path: path, call) }
        jobs[id] = .active(path: path, shown: content)
        onJobChanged?(id)
    }

    /// Sends a job view call without asking for a reply (they are fire-and-forget in KDE).
    private func send(path: String, _ call: KDEJobCall) {
        guard let owner = serverOwner else { return }
        do {
            let message = try DBusMessage.methodCall(destination: owner, path: path,
                                                     interface: call.interface, member: call.member)
            try message.append(call.arguments)
            message.noReplyExpected = true
            connection.send(message)
        } catch {
            Log.warning("KDE job \(call.member): \(error.message)")
        }
    }

    private func busCall(_ member: String, _ arguments: [DBusValue],
                         completion: @escaping (DBusConnection.CallResult) -> Void) {
        connection.callMethodAsync(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                   interface: "org.freedesktop.DBus", member: member, arguments: arguments,
                                   completion: completion)
    }

    // MARK: Signals

    private func handle(_ message: DBusMessage) -> Bool {
        guard message.kind == .signal else { return false }
        if message.interface == "org.freedesktop.DBus", message.member == "NameOwnerChanged" {
            // Only the bus driver says who owns a name; anyone can send this signal straight to us.
            guard message.sender == "org.freedesktop.DBus" else { return false }
            let arguments = (try? message.arguments()) ?? []
            guard arguments.count == 3, arguments[0].string == KDEJobNames.serverName else { return false }
            let newOwner = arguments[2].string ?? ""
            if newOwner.isEmpty { serverVanished() } else { serverAppeared(newOwner) }
            return false
        }
        guard message.interface == KDEJobNames.viewInterface, let owner = serverOwner, message.sender == owner,
              let path = message.path, let id = activity(at: path) else { return false }
        guard message.member == "cancelRequested" else { return false }
        onCancel?(id)
        return true
    }

    private func activity(at path: String) -> String? {
        jobs.first { entry in
            if case .active(let jobPath, _) = entry.value { return jobPath == path }
            return false
        }?.key
    }

    private func serverAppeared(_ owner: String) {
        guard owner != serverOwner else { return }
        if serverOwner != nil { serverVanished() }
        serverOwner = owner
        generation += 1
        Log.info("KDE job server found: activities with progress show as KDE jobs")
        let waiting = unrendered.sorted()
        unrendered.removeAll()
        for id in waiting { onJobChanged?(id) }
    }

    private func serverVanished() {
        guard serverOwner != nil else { return }
        serverOwner = nil
        generation += 1
        let had = Array(jobs.keys)
        jobs.removeAll()
        unrendered.formUnion(wanted.keys)
        wanted.removeAll()
        for id in had { onJobChanged?(id) }
    }
}
