import ActivityFiles
import DBus

/// Where the daemon learns that the user walked away and came back: the desktop's idle
/// monitor (`MutterIdleSource` on GNOME, `ScreenSaverIdleSource` on KDE and others). Watches
/// are set only while a session that pauses when idle is running (or waits for the user),
/// and dropped otherwise, so an idle daemon asks nothing of the desktop.
protocol IdleSource: AnyObject {
    var choice: IdleSourceChoice { get }
    /// Calls `onIdle` with the seconds the user has been idle, once that reaches `threshold`.
    func watchForIdle(threshold: Double, onIdle: @escaping (Double) -> Void)
    /// Calls `onActive` once, when the user is active again.
    func watchForReturn(onActive: @escaping () -> Void)
    /// Drops every watch.
    func stopWatching()
}

/// Picks the idle source the session bus offers now (nil: none, so sessions are not paused).
enum IdleSources {
    static func available(on connection: DBusConnection, clock: ServiceClock) -> (any IdleSource)? {
        if (try? connection.nameHasOwner(IdleSourceChoice.mutter.rawValue)) == true {
            return MutterIdleSource(connection: connection)
        }
        if (try? connection.nameHasOwner(IdleSourceChoice.screenSaver.rawValue)) == true {
            return ScreenSaverIdleSource(connection: connection, clock: clock)
        }
        return nil
    }

    /// Calls `changed` when either idle monitor's name changes owner (a desktop starting after
    /// the daemon, a shell restart); returns the handler's token.
    static func watchOwners(on connection: DBusConnection, changed: @escaping () -> Void) -> DBusConnection.HandlerToken {
        let names = [IdleSourceChoice.mutter.rawValue, IdleSourceChoice.screenSaver.rawValue]
        for name in names {
            try? connection.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                                     + "member='NameOwnerChanged',arg0='\(name)'")
        }
        return connection.addMessageHandler { message in
            guard message.kind == .signal, message.member == "NameOwnerChanged", message.interface == "org.freedesktop.DBus",
                  let name = (try? message.arguments())?.first?.string, names.contains(name) else { return false }
            changed()
            return false
        }
    }
}
