import CDBus
import Glibc

/// Runs a connection from an `EventLoop`: libdbus watches become poll sources, its timeouts
/// become loop timeouts, and incoming messages are dispatched from the loop, never from
/// inside libdbus's dispatch-status callback.
final class LoopIntegration {
    private let loop: EventLoop
    private let connection: OpaquePointer
    private var watchSources: [OpaquePointer: Int] = [:]
    private var timeoutIDs: [OpaquePointer: Int] = [:]
    private var dispatchScheduled = false
    private var isDispatching = false

    init(loop: EventLoop, connection: OpaquePointer) {
        self.loop = loop
        self.connection = connection
    }

    /// Installs the watch, timeout and dispatch-status functions, and dispatches anything already queued.
    func install() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(connection, addWatchTrampoline, removeWatchTrampoline,
                                            toggleWatchTrampoline, context, nil)
        dbus_connection_set_timeout_functions(connection, addTimeoutTrampoline, removeTimeoutTrampoline,
                                              toggleTimeoutTrampoline, context, nil)
        dbus_connection_set_dispatch_status_function(connection, dispatchStatusTrampoline, context, nil)
        scheduleDispatch()
    }

    /// Removes every function from libdbus and every source from the loop.
    func uninstall() {
        dbus_connection_set_dispatch_status_function(connection, nil, nil, nil)
        dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        for id in watchSources.values { loop.removeSource(id) }
        for id in timeoutIDs.values { loop.removeTimeout(id) }
        watchSources = [:]
        timeoutIDs = [:]
    }

    fileprivate func addWatch(_ watch: OpaquePointer) {
        let fd = dbus_watch_get_unix_fd(watch)
        let id = loop.addSource(fd: fd, events: Self.pollEvents(of: watch)) { [weak self] revents in
            self?.handle(watch, revents: revents)
        }
        watchSources[watch] = id
    }

    fileprivate func removeWatch(_ watch: OpaquePointer) {
        if let id = watchSources.removeValue(forKey: watch) { loop.removeSource(id) }
    }

    fileprivate func toggleWatch(_ watch: OpaquePointer) {
        if let id = watchSources[watch] { loop.setSourceEvents(id, Self.pollEvents(of: watch)) }
    }

    /// `dbus_watch_handle` with the poll result, then dispatch whatever arrived.
    private func handle(_ watch: OpaquePointer, revents: Int16) {
        var flags: UInt32 = 0
        if revents & Int16(POLLIN) != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
        if revents & Int16(POLLOUT) != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if revents & Int16(POLLERR) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
        if revents & Int16(POLLHUP) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
        _ = dbus_watch_handle(watch, flags)
        if dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS { scheduleDispatch() }
    }

    /// The poll events an enabled watch asks for; 0 when disabled.
    private static func pollEvents(of watch: OpaquePointer) -> Int16 {
        guard dbus_watch_get_enabled(watch) != 0 else { return 0 }
        let flags = dbus_watch_get_flags(watch)
        var events: Int16 = 0
        if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
        if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
        return events
    }

    fileprivate func addTimeout(_ timeout: OpaquePointer) {
        guard dbus_timeout_get_enabled(timeout) != 0 else { return }
        timeoutIDs[timeout] = loop.addTimeout(milliseconds: dbus_timeout_get_interval(timeout)) { [weak self] in
            guard self?.timeoutIDs[timeout] != nil else { return }
            _ = dbus_timeout_handle(timeout)
        }
    }

    fileprivate func removeTimeout(_ timeout: OpaquePointer) {
        if let id = timeoutIDs.removeValue(forKey: timeout) { loop.removeTimeout(id) }
    }

    fileprivate func toggleTimeout(_ timeout: OpaquePointer) {
        removeTimeout(timeout)
        addTimeout(timeout)
    }

    /// Arranges one dispatch round on the loop; cheap to call repeatedly.
    fileprivate func scheduleDispatch() {
        guard !dispatchScheduled else { return }
        dispatchScheduled = true
        loop.runSoon { [weak self] in self?.dispatch() }
    }

    /// `dbus_connection_dispatch` until the incoming queue is empty. A handler that runs the
    /// loop again (nested) must not dispatch: libdbus would wait for its own dispatch lock.
    private func dispatch() {
        dispatchScheduled = false
        guard !isDispatching else { return }
        isDispatching = true
        defer { isDispatching = false }
        while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
    }
}

extension DBusConnection {
    /// Drives this connection from `loop` (replacing any earlier loop): reads, writes,
    /// timeouts and dispatch of incoming messages to the handlers all happen there.
    /// A handler that runs the loop again (nested `run(until:)`) sees timers and other
    /// sources, but no further messages of this connection until it returns.
    public func attach(to loop: EventLoop) {
        loopIntegration?.uninstall()
        let integration = LoopIntegration(loop: loop, connection: pointer)
        loopIntegration = integration
        integration.install()
    }
}

private func integration(_ userData: UnsafeMutableRawPointer?) -> LoopIntegration? {
    userData.map { Unmanaged<LoopIntegration>.fromOpaque($0).takeUnretainedValue() }
}

private func addWatchTrampoline(_ watch: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) -> dbus_bool_t {
    guard let watch, let target = integration(userData) else { return 0 }
    target.addWatch(watch)
    return 1
}

private func removeWatchTrampoline(_ watch: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) {
    guard let watch else { return }
    integration(userData)?.removeWatch(watch)
}

private func toggleWatchTrampoline(_ watch: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) {
    guard let watch else { return }
    integration(userData)?.toggleWatch(watch)
}

private func addTimeoutTrampoline(_ timeout: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) -> dbus_bool_t {
    guard let timeout, let target = integration(userData) else { return 0 }
    target.addTimeout(timeout)
    return 1
}

private func removeTimeoutTrampoline(_ timeout: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) {
    guard let timeout else { return }
    integration(userData)?.removeTimeout(timeout)
}

private func toggleTimeoutTrampoline(_ timeout: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) {
    guard let timeout else { return }
    integration(userData)?.toggleTimeout(timeout)
}

/// Only records that dispatch is needed: dispatching here would re-enter libdbus.
private func dispatchStatusTrampoline(_ connection: OpaquePointer?, _ status: DBusDispatchStatus,
                                      _ userData: UnsafeMutableRawPointer?) {
    guard status == DBUS_DISPATCH_DATA_REMAINS else { return }
    integration(userData)?.scheduleDispatch()
}
