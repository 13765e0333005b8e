import CWayland
import Glibc

/// A Wayland client without a window, there only to hear from the compositor when the user
/// goes idle and comes back (ext-idle-notify-v1, or the older org_kde_kwin_idle where that is
/// all the compositor offers). It owns the display connection and its registry, the idle
/// manager and a seat; the caller polls `fileDescriptor` in its own loop and calls `dispatch`
/// when it is readable. Everything happens on the thread that made it.
public final class WaylandIdleClient {
    /// The protocol the compositor offers that the client uses.
    public enum IdleProtocol: String, Sendable {
        case extIdleNotify = "ext-idle-notify-v1"
        case kdeIdle = "org_kde_kwin_idle"
    }

    public let idleProtocol: IdleProtocol
    /// The connection's socket: readable when the compositor sent something.
    public let fileDescriptor: Int32
    let display: OpaquePointer
    private let registry: OpaquePointer
    private let manager: OpaquePointer
    private let seat: OpaquePointer
    private let globals: RegistryGlobals

    /// Connects to `display` (a name under `XDG_RUNTIME_DIR` or an absolute path, as
    /// `WAYLAND_DISPLAY`) and reads the compositor's globals, waiting at most `timeout`
    /// seconds; nil when it cannot connect, does not answer, or offers no idle protocol or no
    /// seat. `why` tells which.
    public init?(display name: String, timeout: Double = 2, why: inout String) {
        guard let display = name.withCString({ wl_display_connect($0) }) else {
            why = "cannot connect to the Wayland display \(name)"
            return nil
        }
        let globals = RegistryGlobals()
        guard let registry = wl_display_get_registry(display) else {
            wl_display_disconnect(display)
            why = "no registry"
            return nil
        }
        wl_registry_add_listener(registry, globals.listener, Unmanaged.passUnretained(globals).toOpaque())
        guard Roundtrip.run(display, timeout: timeout) else {
            wl_registry_destroy(registry)
            wl_display_disconnect(display)
            why = "the compositor at \(name) did not answer within \(timeout) s"
            return nil
        }
        let offered: (IdleProtocol, UInt32)? = globals.extIdleNotifier.map { (.extIdleNotify, $0) }
            ?? globals.kdeIdle.map { (.kdeIdle, $0) }
        guard let (idleProtocol, managerName) = offered, let seatName = globals.seat,
              let manager = la_bind_idle_manager(registry, managerName, idleProtocol.c),
              let seat = la_bind_seat(registry, seatName) else {
            wl_registry_destroy(registry)
            wl_display_disconnect(display)
            why = "the compositor at \(name) offers neither ext_idle_notifier_v1 nor org_kde_kwin_idle, or no seat"
            return nil
        }
        self.display = display
        self.registry = registry
        self.manager = manager
        self.seat = seat
        self.globals = globals
        self.idleProtocol = idleProtocol
        fileDescriptor = wl_display_get_fd(display)
        wl_display_flush(display)
    }

    deinit {
        la_idle_manager_destroy(manager, idleProtocol.c)
        wl_seat_destroy(seat)
        wl_registry_destroy(registry)
        wl_display_flush(display)
        wl_display_disconnect(display)
    }

    /// Asks to be told once the user has been idle `milliseconds`, and again when they are
    /// back; the watch lasts as long as the returned object.
    public func watch(milliseconds: UInt32, onIdled: @escaping () -> Void, onResumed: @escaping () -> Void) -> WaylandIdleWatch? {
        guard let proxy = la_idle_watch(manager, idleProtocol.c, max(1, milliseconds), seat) else { return nil }
        let watch = WaylandIdleWatch(client: self, proxy: proxy, onIdled: onIdled, onResumed: onResumed)
        wl_display_flush(display)
        return watch
    }

    /// Reads and handles what the compositor sent (call it when `fileDescriptor` is readable);
    /// false once the connection is gone (the compositor quit), after which nothing comes.
    public func dispatch() -> Bool {
        guard wl_display_dispatch(display) >= 0 else { return false }
        return wl_display_flush(display) >= 0 || errno == EAGAIN
    }
}

extension WaylandIdleClient.IdleProtocol {
    var c: la_idle_protocol { self == .extIdleNotify ? LA_IDLE_EXT : LA_IDLE_KDE }
}
