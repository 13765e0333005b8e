import CWayland
import Glibc

/// `wl_display_roundtrip` with a deadline: a compositor that does not answer must not hang the
/// daemon's loop. Sends `wl_display.sync` and reads until its `done` arrives or time is up.
enum Roundtrip {
    static func run(_ display: OpaquePointer, timeout: Double) -> Bool {
        guard let callback = wl_display_sync(display) else { return false }
        let done = DoneFlag()
        let listener = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
        listener.initialize(to: wl_callback_listener(done: callbackDone))
        wl_callback_add_listener(callback, listener, Unmanaged.passUnretained(done).toOpaque())
        defer {
            wl_callback_destroy(callback)
            listener.deinitialize(count: 1)
            listener.deallocate()
        }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let deadline = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + timeout
        while !done.value {
            guard wl_display_flush(display) >= 0 || errno == EAGAIN else { return false }
            while wl_display_prepare_read(display) != 0 {
                guard wl_display_dispatch_pending(display) >= 0 else { return false }
                if done.value { return true }
            }
            clock_gettime(CLOCK_MONOTONIC, &now)
            let left = deadline - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
            var descriptor = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&descriptor, 1, Int32(left * 1000) + 1) > 0 else {
                wl_display_cancel_read(display)
                return false
            }
            guard wl_display_read_events(display) >= 0, wl_display_dispatch_pending(display) >= 0 else { return false }
        }
        return true
    }
}

/// Set by the sync callback's `done` event.
private final class DoneFlag {
    var value = false
}

private func callbackDone(_ data: UnsafeMutableRawPointer?, _ callback: OpaquePointer?, _ serial: UInt32) {
    guard let data else { return }
    Unmanaged<DoneFlag>.fromOpaque(data).takeUnretainedValue().value = true
}
