import ActivityFiles

/// What the daemon sets on the service once, from its configuration and its connection, before
/// the state is restored. It exists so that these settings are one value of the service.
struct ServiceSettings {
    /// The `lock-screen` setting, published on each activity as `LockScreen` (issue 26).
    var lockScreenPrivacy = LockScreenPrivacy.full
    /// Which application a caller is (a Flatpak's id, for Start's `app-id`); nil: not asked.
    var callerApps: CallerApps?
}
