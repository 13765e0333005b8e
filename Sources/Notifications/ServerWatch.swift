import CNotify

/// Where the name watcher's callbacks go (weakly, the engine).
final class ServerWatchTarget {
    weak var engine: NotificationEngine?
    init(engine: NotificationEngine) { self.engine = engine }
}

/// GBusNameAppearedCallback: `org.freedesktop.Notifications` got an owner.
private func serverAppearedTrampoline(_ connection: OpaquePointer?, _ name: UnsafePointer<gchar>?,
                                      _ owner: UnsafePointer<gchar>?, _ data: gpointer?) {
    guard let data, let owner else { return }
    Unmanaged<ServerWatchTarget>.fromOpaque(data).takeUnretainedValue().engine?.serverAppeared(owner: String(cString: owner))
}

/// GBusNameVanishedCallback: the name has no owner (or the bus connection is gone).
private func serverVanishedTrampoline(_ connection: OpaquePointer?, _ name: UnsafePointer<gchar>?, _ data: gpointer?) {
    guard let data else { return }
    Unmanaged<ServerWatchTarget>.fromOpaque(data).takeUnretainedValue().engine?.serverVanished()
}

private func releaseServerWatchTarget(_ data: gpointer?) {
    if let data { Unmanaged<ServerWatchTarget>.fromOpaque(data).release() }
}

/// Watches the owner of `org.freedesktop.Notifications` on the session bus (NameOwnerChanged,
/// through g_bus_watch_name_on_connection), so a started, restarted or vanished server is
/// noticed. Callbacks arrive on the thread-default context of the thread that creates it.
final class ServerWatch {
    static let serverName = "org.freedesktop.Notifications"

    /// The shared session connection, libnotify's own (a GDBusConnection).
    let connection: OpaquePointer
    private var watchID: guint = 0

    /// Connects to the session bus (the same shared connection libnotify uses) and starts watching.
    init(engine: NotificationEngine) throws(LibnotifyError) {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            let message = error?.pointee.message.map { String(cString: $0) } ?? "no session bus"
            if let error { g_error_free(error) }
            throw LibnotifyError(description: message)
        }
        connection = bus
        // The shared connection would otherwise kill the whole process when the bus goes away.
        g_dbus_connection_set_exit_on_close(bus, la_g_false)
        let userdata = Unmanaged.passRetained(ServerWatchTarget(engine: engine)).toOpaque()
        watchID = g_bus_watch_name_on_connection(bus, Self.serverName, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                 serverAppearedTrampoline, serverVanishedTrampoline,
                                                 userdata, releaseServerWatchTarget)
    }

    /// Stops watching (g_bus_unwatch_name); idempotent.
    func cancel() {
        if watchID != 0 { g_bus_unwatch_name(watchID) }
        watchID = 0
    }

    deinit {
        cancel()
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// Asks the server who it is (notify_get_server_info + notify_get_server_caps; synchronous).
    static func readServerInfo() -> ServerInfo {
        var name: UnsafeMutablePointer<CChar>?
        var vendor: UnsafeMutablePointer<CChar>?
        var version: UnsafeMutablePointer<CChar>?
        var spec: UnsafeMutablePointer<CChar>?
        defer { g_free(name); g_free(vendor); g_free(version); g_free(spec) }
        let known = notify_get_server_info(&name, &vendor, &version, &spec) != la_g_false
        var capabilities: [String] = []
        let list = notify_get_server_caps()
        var node = list
        while let current = node {
            if let data = current.pointee.data {
                capabilities.append(String(cString: data.assumingMemoryBound(to: CChar.self)))
            }
            node = current.pointee.next
        }
        g_list_free_full(list, g_free)
        func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        return ServerInfo(name: known ? text(name) : "unknown", vendor: text(vendor), version: text(version),
                          specVersion: text(spec), capabilities: capabilities)
    }
}
