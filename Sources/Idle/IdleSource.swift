import ActivityFiles
import DBus
import ServiceSupport

/// Where the daemon learns that the user walked away and came back: the desktop's idle
/// monitor (`MutterIdleSource` on GNOME, `WaylandIdleSource` where the compositor offers
/// ext-idle-notify-v1, `ScreenSaverIdleSource` on KDE under X11 and others). Watches are set
/// only while a session that pauses when idle is running (or waits for the user), and dropped
/// otherwise, so an idle daemon asks nothing of the desktop.
package protocol IdleSource: AnyObject {
    var kind: IdleSourceKind { get }
    /// What `doctor` and the manager's `IdleSource` property call it.
    var name: String { get }
    /// Set by the owner: called when the source finds it cannot tell idleness here after all
    /// (NotSupported, a compositor that went away); another source then serves.
    var onUnusable: (() -> Void)? { get set }
    /// Calls `onIdle` with the seconds the user has been idle, once that reaches `threshold`.
    func watchForIdle(threshold: Double, onIdle: @escaping (Double) -> Void)
    /// Calls `onActive` once, when the user is active again.
    func watchForReturn(onActive: @escaping () -> Void)
    /// Drops every watch.
    func stopWatching()
}

/// The idle sources in the order they are preferred.
package enum IdleSourceKind: CaseIterable {
    /// GNOME: events from Mutter itself.
    case mutter
    /// A Wayland compositor's ext-idle-notify-v1 (KWin 6, sway 1.8+, Hyprland, niri, labwc).
    case wayland
    /// `org.freedesktop.ScreenSaver.GetSessionIdleTime`, polled: where nothing better exists.
    case screenSaver
}

/// The waits of the idle sources, which tests shorten: how long a call may take, and the
/// back-off after a reading that was not one (`IdleRetry`).
package struct IdleTuning: Sendable {
    var callTimeout = 5.0
    var retryAfter = 30.0
    var longestRetry = 300.0

    package init(callTimeout: Double = 5.0, retryAfter: Double = 30.0, longestRetry: Double = 300.0) {
        self.callTimeout = callTimeout
        self.retryAfter = retryAfter
        self.longestRetry = longestRetry
    }
}

/// Picks the idle source the session offers now: the first of `IdleSourceKind.allCases` that
/// is there and not `excluded` (nil: none, so sessions are not paused).
package struct IdleSources {
    let connection: DBusConnection
    let clock: ServiceClock
    let tuning: IdleTuning
    /// Opens the Wayland source (nil where the session is not Wayland or the compositor does
    /// not offer ext-idle-notify-v1).
    let openWayland: () -> (any IdleSource)?

    package init(connection: DBusConnection, clock: ServiceClock, tuning: IdleTuning,
                 openWayland: @escaping () -> (any IdleSource)?) {
        self.connection = connection
        self.clock = clock
        self.tuning = tuning
        self.openWayland = openWayland
    }

    package func available(excluding excluded: Set<IdleSourceKind>) -> (any IdleSource)? {
        for kind in IdleSourceKind.allCases where !excluded.contains(kind) {
            switch kind {
            case .mutter:
                if (try? connection.nameHasOwner(MutterIdleSource.busName)) == true,
                   let source = MutterIdleSource(connection: connection, clock: clock, tuning: tuning) {
                    return source
                }
            case .wayland:
                if let source = openWayland() { return source }
            case .screenSaver:
                if let source = ScreenSaverIdleSource.onBus(connection, clock: clock, tuning: tuning) { return source }
            }
        }
        return nil
    }

    /// The bus names whose owners are watched: a change makes the daemon choose again.
    static let watchedNames = [MutterIdleSource.busName, ScreenSaverIdleSource.busName, ScreenSaverIdleSource.kdeName]

    /// Calls `changed` when an idle monitor's name changes owner (a desktop starting after
    /// the daemon, a shell restart); returns the handler's token.
    package static func watchOwners(on connection: DBusConnection, changed: @escaping () -> Void) -> DBusConnection.HandlerToken {
        for name in watchedNames {
            try? connection.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                                     + "member='NameOwnerChanged',arg0='\(name)'")
        }
        return connection.addMessageHandler { message in
            guard message.kind == .signal, message.member == "NameOwnerChanged", message.interface == "org.freedesktop.DBus",
                  message.sender == "org.freedesktop.DBus",
                  let name = (try? message.arguments())?.first?.string, watchedNames.contains(name) else { return false }
            changed()
            return false
        }
    }
}
