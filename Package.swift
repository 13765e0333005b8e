// swift-tools-version:6.0
import PackageDescription

/// LiveActivities: iOS-style Live Activities for the Linux desktop.
let package = Package(
    name: "LiveActivities",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "liveactivityd", targets: ["liveactivityd"]),
        .executable(name: "liveactivity", targets: ["liveactivity"]),
    ],
    targets: [
        .systemLibrary(name: "CDBus", path: "Modules/CDBus", pkgConfig: "dbus-1",
                       providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CNotify", path: "Modules/CNotify", pkgConfig: "libnotify",
                       providers: [.apt(["libnotify-dev"])]),

        .target(name: "ActivityModel"),
        /// A pthread mutex and thread start, so the daemon needs no Foundation (nor ICU).
        .target(name: "ThreadSupport"),
        .target(name: "DBus", dependencies: ["CDBus", "ThreadSupport"]),
        .target(name: "Notifications", dependencies: ["CNotify", "ThreadSupport"]),
        .target(name: "LiveActivitiesService",
                dependencies: ["ActivityModel", "DBus", "Notifications"]),
        .target(name: "LiveActivityCLI", dependencies: ["DBus", "ActivityModel"]),
        .executableTarget(name: "liveactivityd", dependencies: ["LiveActivitiesService"]),
        .executableTarget(name: "liveactivity", dependencies: ["LiveActivityCLI"]),
        /// The benchmark of docs/benchmarks.md (scripts/bench): the real daemon on a private bus.
        .executableTarget(name: "liveactivity-bench", dependencies: ["DBus", "TestSupport"]),

        /// Real processes for tests: a private dbus-daemon, Xvfb, dunst, our binaries.
        .target(name: "TestSupport", dependencies: ["DBus"], path: "Tests/TestSupport"),

        .testTarget(name: "ActivityModelTests", dependencies: ["ActivityModel"]),
        .testTarget(name: "LiveActivitiesServiceTests", dependencies: ["LiveActivitiesService", "TestSupport"]),
        .testTarget(name: "LiveActivityCLITests", dependencies: ["LiveActivityCLI", "DBus"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "TestSupport"]),
        .testTarget(name: "NotificationsTests", dependencies: ["Notifications", "TestSupport"]),
        .testTarget(name: "IntegrationTests",
                    dependencies: ["DBus", "ActivityModel", "LiveActivityCLI", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
