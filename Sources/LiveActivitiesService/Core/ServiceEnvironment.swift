import DBus

/// What the service runs on, given at `init` and never replaced: the event loop, the bus's
/// object server, the clock and the watch on the kind directories. It exists so that the
/// service's surroundings are one value, apart from the state it keeps.
struct ServiceEnvironment {
    let loop: EventLoop
    let server: DBusObjectServer
    /// Wall clock, zone, monotonic time and wake-ups; read where a step needs the moment (a call
    /// or tick may read it more than once).
    let clock: ServiceClock
    let kindWatch: KindDirectoryWatch
}
