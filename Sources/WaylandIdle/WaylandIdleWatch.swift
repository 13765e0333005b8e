import CWayland

/// One idle notification (ext_idle_notification_v1 or org_kde_kwin_idle_timeout): `onIdled`
/// once the user has been idle its time, `onResumed` at their next input after that. Freeing
/// it destroys the notification; the handlers can be replaced while it lives.
public final class WaylandIdleWatch {
    public var onIdled: () -> Void
    public var onResumed: () -> Void
    /// Whether the last event was `idled` (the user is away as far as this watch knows).
    public private(set) var isIdle = false
    private let client: WaylandIdleClient
    private let proxy: OpaquePointer
    private let listener: UnsafeMutablePointer<la_idle_listener>

    init(client: WaylandIdleClient, proxy: OpaquePointer, onIdled: @escaping () -> Void,
         onResumed: @escaping () -> Void) {
        self.client = client
        self.proxy = proxy
        self.onIdled = onIdled
        self.onResumed = onResumed
        listener = .allocate(capacity: 1)
        listener.initialize(to: la_idle_listener(idled: idledTrampoline, resumed: resumedTrampoline))
        la_idle_add_listener(proxy, listener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        la_idle_watch_destroy(proxy)
        wl_display_flush(client.display)
        listener.deinitialize(count: 1)
        listener.deallocate()
    }

    fileprivate func idled() {
        isIdle = true
        onIdled()
    }

    fileprivate func resumed() {
        isIdle = false
        onResumed()
    }
}

private func idledTrampoline(_ data: UnsafeMutableRawPointer?, _ proxy: OpaquePointer?) {
    guard let data else { return }
    // Held for the call: the handler may drop the last other reference (and destroy the proxy,
    // which libwayland allows inside its own event).
    let watch = Unmanaged<WaylandIdleWatch>.fromOpaque(data).takeUnretainedValue()
    withExtendedLifetime(watch) { watch.idled() }
}

private func resumedTrampoline(_ data: UnsafeMutableRawPointer?, _ proxy: OpaquePointer?) {
    guard let data else { return }
    let watch = Unmanaged<WaylandIdleWatch>.fromOpaque(data).takeUnretainedValue()
    withExtendedLifetime(watch) { watch.resumed() }
}
