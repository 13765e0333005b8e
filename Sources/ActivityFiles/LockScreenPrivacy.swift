/// How much of a live activity the lock screen may show (`lock-screen` in liveactivityd.conf),
/// as iOS's "Allow Live Activities on the Lock Screen" with a middle ground: `full` shows what
/// the island's menu shows, `private` only the kind's name, the time and the bar, `off` nothing.
public enum LockScreenPrivacy: String, Sendable, CaseIterable {
    case full, `private`, off
}
