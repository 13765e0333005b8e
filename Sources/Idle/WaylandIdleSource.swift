import DBus
import ServiceSupport
import WaylandIdle

/// Idleness from the Wayland compositor itself (`WaylandIdleClient`: ext-idle-notify-v1, or
/// org_kde_kwin_idle on older compositors), for sessions where the bus has no idle monitor
/// that can tell: KDE Plasma under Wayland (kscreenlocker answers NotSupported there), sway,
/// Hyprland, niri, labwc. Events only, no polling: the compositor's socket is one more
/// descriptor in the daemon's loop.
///
/// An idle watch is a notification with the threshold as its timeout. Its `resumed` is the
/// user's return, so the notification that fired is kept for `watchForReturn`; without one
/// (a restarted daemon, a session paused by hand), a one-second notification serves: it goes
/// idle within a second of no input and resumes at the next.
package final class WaylandIdleSource: IdleSource {
    package let kind = IdleSourceKind.wayland
    package let name: String
    package var onUnusable: (() -> Void)?
    private let client: WaylandIdleClient
    private let loop: EventLoop
    private var reader: ReaderToken?
    private var current: WaylandIdleWatch?

    /// The timeout of the notification that waits for the user's return when no idle one is
    /// at hand, in milliseconds.
    static let returnWatchMilliseconds: UInt32 = 1000

    private init(client: WaylandIdleClient, loop: EventLoop) {
        self.client = client
        self.loop = loop
        name = "Wayland \(client.idleProtocol.rawValue)"
        reader = loop.addReader(fd: client.fileDescriptor) { [weak self] in self?.readable() }
    }

    deinit {
        if let reader { loop.removeReader(reader) }
    }

    /// The compositor at `display` (`WAYLAND_DISPLAY`), when there is one that offers an idle
    /// protocol; nil otherwise (and why is logged).
    package static func open(display: String?, loop: EventLoop) -> WaylandIdleSource? {
        guard let display, !display.isEmpty else { return nil }
        var why = ""
        guard let client = WaylandIdleClient(display: display, why: &why) else {
            Log.info("idle: no Wayland idle source: \(why)")
            return nil
        }
        return WaylandIdleSource(client: client, loop: loop)
    }

    package func watchForIdle(threshold: Double, onIdle: @escaping (Double) -> Void) {
        stopWatching()
        let milliseconds = UInt32(min(max(1, threshold * 1000), Double(UInt32.max)))
        current = client.watch(milliseconds: milliseconds, onIdled: { onIdle(threshold) }, onResumed: {})
        if current == nil { lost("the compositor refused an idle notification") }
    }

    package func watchForReturn(onActive: @escaping () -> Void) {
        if let current, current.isIdle {
            current.onIdled = {}
            current.onResumed = onActive
            return
        }
        stopWatching()
        current = client.watch(milliseconds: Self.returnWatchMilliseconds, onIdled: {}, onResumed: onActive)
        if current == nil { lost("the compositor refused an idle notification") }
    }

    /// Drops the handlers; a notification whose user is away stays, for `watchForReturn`.
    package func stopWatching() {
        guard let current else { return }
        if current.isIdle {
            current.onIdled = {}
            current.onResumed = {}
        } else {
            self.current = nil
        }
    }

    private func readable() {
        if !client.dispatch() { lost("the Wayland compositor closed the connection") }
    }

    private func lost(_ why: String) {
        if let reader { loop.removeReader(reader) }
        reader = nil
        current = nil
        Log.warning("idle: \(name): \(why)")
        // Not from inside a Wayland event (the owner frees this source, and with it the display).
        loop.runSoon { [weak self] in self?.onUnusable?() }
    }
}
