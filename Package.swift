// swift-tools-version:6.0
import PackageDescription

/// LiveActivities: iOS-style Live Activities for the Linux desktop.
let package = Package(
    name: "LiveActivities",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "liveactivityd", targets: ["liveactivityd"]),
        .executable(name: "liveactivity", targets: ["liveactivity"]),
        /// ActivityKit's API for Swift programs on Linux (docs/swift.md).
        .library(name: "LiveActivityKit", targets: ["LiveActivityKit"]),
        .executable(name: "focusflow", targets: ["focusflow"]),
        .executable(name: "leanup", targets: ["leanup"]),
    ],
    targets: [
        .systemLibrary(name: "CDBus", path: "Modules/CDBus", pkgConfig: "dbus-1",
                       providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CNotify", path: "Modules/CNotify", pkgConfig: "libnotify",
                       providers: [.apt(["libnotify-dev"])]),
        /// Header only (no pkgConfig: its -lmosquitto would link the library): MQTT dlopens it.
        .systemLibrary(name: "CMosquitto", path: "Modules/CMosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .systemLibrary(name: "CWayland", path: "Modules/CWayland", pkgConfig: "wayland-client",
                       providers: [.apt(["libwayland-dev"])]),

        .target(name: "ActivityModel"),
        /// What the daemon and the CLI read from disk (XDG paths, kind directories, liveactivityd.conf): the model stays pure.
        .target(name: "ActivityFiles", dependencies: ["ActivityModel", "Push"]),
        /// DESIGN.md's names (bus name, paths, interfaces, error prefix) and the version, shared
        /// by the daemon, the CLI, the benchmark and the tests.
        .target(name: "LiveActivitiesContract"),
        /// A pthread mutex and thread start, so the daemon needs FoundationEssentials only (no Foundation, no ICU).
        .target(name: "ThreadSupport"),
        .target(name: "DBus", dependencies: ["CDBus", "ThreadSupport"]),
        .target(name: "Notifications", dependencies: ["CNotify", "ThreadSupport", "ActivityModel"]),
        /// The only importer of CMosquitto: an MQTT client on its own thread (push, docs/push.md).
        .target(name: "MQTT", dependencies: ["CMosquitto", "ThreadSupport"]),
        /// The only importer of CWayland: a windowless Wayland client that hears when the user
        /// goes idle and comes back (ext-idle-notify-v1, or org_kde_kwin_idle), for focus sessions.
        .target(name: "WaylandIdle", dependencies: ["CWayland"]),
        /// Pure push logic: `aps` payloads, topics, tokens, the push-* settings.
        .target(name: "Push"),
        /// What every part of the daemon shares and nothing more: the log and the `ServiceClock` protocol.
        .target(name: "ServiceSupport"),
        /// The daemon's files: state.json and its journal, the history and its rotation, atomic writes, the lock.
        .target(name: "Persistence", dependencies: ["ActivityModel", "ActivityFiles", "ServiceSupport"]),
        /// Do Not Disturb on each desktop (GNOME, Plasma, dunst, mako, swaync, xfce4) and the marker that restores it after a crash.
        .target(name: "Quiet", dependencies: ["ActivityFiles", "DBus", "Persistence", "ServiceSupport"]),
        /// When the user goes idle and comes back (Mutter's IdleMonitor, org.freedesktop.ScreenSaver, Wayland), and the time away.
        .target(name: "Idle", dependencies: ["ActivityFiles", "ActivityModel", "DBus", "Persistence", "ServiceSupport", "WaylandIdle"]),
        /// Each live activity mirrored as a KDE job (org.kde.JobViewServer), for Plasma's progress applet.
        .target(name: "KDEJobs", dependencies: ["ActivityModel", "DBus", "ServiceSupport"]),
        /// The tray item (StatusNotifierItem) and its menu (com.canonical.dbusmenu); Notifications for its markup escaping.
        .target(name: "Tray", dependencies: ["ActivityModel", "DBus", "Notifications", "ServiceSupport"]),
        /// The MPRIS media player that shows the most relevant timer (lock screens, media applets); it is told what to show.
        .target(name: "MPRIS", dependencies: ["ActivityModel", "DBus", "LiveActivitiesContract", "ServiceSupport"]),
        /// The daemon's side of push: the broker bridge, the token registry on disk, receipts (no ActivityService).
        .target(name: "PushLink", dependencies: ["ActivityModel", "DBus", "MQTT", "Persistence", "Push", "ServiceSupport"]),
        .target(name: "LiveActivitiesService",
                dependencies: ["ActivityModel", "ActivityFiles", "LiveActivitiesContract", "DBus", "Notifications",
                               "MQTT", "Push", "ThreadSupport", "ServiceSupport", "Persistence", "Quiet", "Idle", "KDEJobs", "Tray", "MPRIS", "PushLink"]),
        .target(name: "LiveActivityCLI", dependencies: ["DBus", "ActivityModel", "ActivityFiles", "LiveActivitiesContract"]),
        .executableTarget(name: "liveactivityd", dependencies: ["LiveActivitiesService"]),
        .executableTarget(name: "liveactivity", dependencies: ["LiveActivityCLI"]),
        /// ActivityKit's names and shapes over the daemon's D-Bus API (docs/swift.md).
        .target(name: "LiveActivityKit", dependencies: ["DBus", "LiveActivitiesContract", "ThreadSupport"]),
        /// The two example apps of the README, ported from iOS with one changed import.
        .executableTarget(name: "focusflow", dependencies: ["LiveActivityKit"], path: "Examples/focusflow"),
        .executableTarget(name: "leanup", dependencies: ["LiveActivityKit"], path: "Examples/leanup"),
        /// The benchmark of docs/benchmarks.md (scripts/bench): the real daemon on a private bus.
        .executableTarget(name: "liveactivity-bench", dependencies: ["DBus", "DaemonHarness", "LiveActivitiesContract", "MQTT"]),
        /// Real processes on a private bus, shared by the tests and the benchmark: a dbus-daemon,
        /// our daemon, Xvfb, dunst, fake notification servers on a thread of their own.
        .target(name: "DaemonHarness", dependencies: ["ActivityFiles", "DBus", "LiveActivitiesContract"]),

        /// The tests' helpers: `DaemonHarness` re-exported, plus what only tests need.
        .target(name: "TestSupport", dependencies: ["DaemonHarness", "LiveActivitiesContract", "DBus"],
                path: "Tests/TestSupport"),

        .testTarget(name: "ActivityModelTests", dependencies: ["ActivityModel", "ActivityFiles"]),
        .testTarget(name: "LiveActivitiesServiceTests",
                    dependencies: ["LiveActivitiesService", "ActivityModel", "ActivityFiles", "DBus", "Notifications", "TestSupport",
                                   "Persistence", "Quiet", "Idle", "KDEJobs", "Tray", "MPRIS", "PushLink"]),
        .testTarget(name: "PushTests", dependencies: ["Push"]),
        .testTarget(name: "MQTTTests", dependencies: ["MQTT", "TestSupport"]),
        /// The service's leaves tested on their own, with no service: state files, push bookkeeping, jobs, idle.
        .testTarget(name: "PersistenceTests", dependencies: ["Persistence", "ActivityModel", "ActivityFiles", "TestSupport"]),
        .testTarget(name: "PushLinkTests", dependencies: ["PushLink"]),
        .testTarget(name: "KDEJobsTests", dependencies: ["KDEJobs", "DBus"]),
        .testTarget(name: "IdleTests", dependencies: ["Idle", "DBus"]),
        .testTarget(name: "LiveActivityCLITests",
                    dependencies: ["LiveActivityCLI", "LiveActivitiesService", "ActivityModel", "DBus", "Notifications", "KDEJobs"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "TestSupport"]),
        .testTarget(name: "NotificationsTests", dependencies: ["Notifications", "TestSupport"]),
        .testTarget(name: "LiveActivityKitTests", dependencies: ["LiveActivityKit", "DBus", "TestSupport"]),
        .testTarget(name: "IntegrationTests",
                    dependencies: ["DBus", "ActivityModel", "LiveActivityCLI", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
