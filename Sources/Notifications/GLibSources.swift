import CNotify

/// A closure run by a GLib source (idle or timeout) on the notification thread.
/// C cannot capture, so the closure travels as retained userdata and is released by GLib.
final class SourceAction {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// Trampoline for GSourceFunc: runs the action once and removes the source.
private func runSourceAction(_ data: gpointer?) -> gboolean {
    if let data { Unmanaged<SourceAction>.fromOpaque(data).takeUnretainedValue().run() }
    return la_g_false
}

/// GDestroyNotify for a `SourceAction`'s userdata.
private func releaseSourceAction(_ data: gpointer?) {
    if let data { Unmanaged<SourceAction>.fromOpaque(data).release() }
}

/// The GMainContext of the notification thread. Attaching a source to a context is
/// thread-safe in GLib, which is how `CardPresenter.show` wakes the thread without blocking.
final class MainContextHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    init?() {
        guard let context = g_main_context_new() else { return nil }
        pointer = context
    }

    deinit { g_main_context_unref(pointer) }

    /// Runs `action` on the context's thread at its next iteration (g_idle_source_new + g_source_attach).
    func invoke(_ action: @escaping () -> Void) {
        guard let source = g_idle_source_new() else { return }
        attach(source, action)
        g_source_unref(source)
    }

    /// Runs `action` once after `milliseconds` (g_timeout_source_new); the returned source
    /// (one reference, the caller's) can be cancelled with `cancel`.
    func schedule(afterMilliseconds milliseconds: UInt32, _ action: @escaping () -> Void) -> UnsafeMutablePointer<GSource>? {
        guard let source = g_timeout_source_new(milliseconds) else { return nil }
        attach(source, action)
        return source
    }

    /// Cancels and releases a source returned by `schedule`.
    static func cancel(_ source: UnsafeMutablePointer<GSource>) {
        g_source_destroy(source)
        g_source_unref(source)
    }

    private func attach(_ source: UnsafeMutablePointer<GSource>, _ action: @escaping () -> Void) {
        let userdata = Unmanaged.passRetained(SourceAction(action)).toOpaque()
        g_source_set_callback(source, runSourceAction, userdata, releaseSourceAction)
        g_source_attach(source, pointer)
    }
}

/// Seconds on GLib's monotonic clock (g_get_monotonic_time): what the scheduler measures with.
func monotonicSeconds() -> Double {
    Double(g_get_monotonic_time()) / 1_000_000
}

/// Writes a warning to fd 2 (the `stderr` global is not concurrency-safe in Swift 6).
func logWarning(_ message: String) {
    let line = "liveactivities: notifications: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}
