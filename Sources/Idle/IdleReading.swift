import DBus

/// One answer of `GetSessionIdleTime`, judged before it is used: the unit it comes in, and
/// whether it is a reading at all. A wrong type, a negative number, int64-min or more than ten
/// years is not a reading, and neither is a timeout: the source retries it later
/// (`IdleRetry`) instead of pausing a session, or never pausing one again.
package enum IdleReading: Equatable {
    /// Seconds idle, 0 to `IdleReading.maximumSeconds`.
    case idle(Double)
    /// The source answers, but cannot tell here (`org.freedesktop.DBus.Error.NotSupported`:
    /// kscreenlocker under Wayland); another source has to.
    case unsupported
    /// Anything else: why, for the log.
    case failed(String)

    /// Ten years: no session has been idle longer; a larger answer is garbage.
    static let maximumSeconds = 10 * 365.25 * 86_400

    /// Judges a call's result; `unit` says what the number counts.
    init(_ result: DBusConnection.CallResult, unit: IdleTimeUnit) {
        switch result {
        case .failure(let error) where error.name == "org.freedesktop.DBus.Error.NotSupported":
            self = .unsupported
        case .failure(let error):
            self = .failed(error.description)
        case .success(let values):
            guard values.count == 1, let value = values.first else {
                self = .failed("\(values.count) values instead of one")
                return
            }
            guard let number = value.integer else {
                self = .failed("not an integer that fits: \(value)")
                return
            }
            let seconds = Double(number) / unit.perSecond
            guard number >= 0, seconds <= Self.maximumSeconds else {
                self = .failed("\(number) \(unit) is not an idle time")
                return
            }
            self = .idle(seconds)
        }
    }
}

/// What a `GetSessionIdleTime` answer counts. The freedesktop interface names its result
/// "seconds", and gnome-screensaver and xfce4-screensaver (`src/gs-listener-dbus.c`: `time(NULL)`
/// minus the moment the session went idle) answer seconds. kscreenlocker answers
/// `KIdleTime::instance()->idleTime()`, which `kidletime.h` documents as "the idle time of the
/// system, in milliseconds" (kscreenlocker v6.3.6, `interface.cpp` line 73).
package enum IdleTimeUnit: String, CustomStringConvertible {
    case seconds, milliseconds

    var perSecond: Double { self == .seconds ? 1 : 1000 }
    package var description: String { rawValue }
}
