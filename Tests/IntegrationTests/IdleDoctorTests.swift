import DBus
import Foundation
import Testing
import TestSupport

/// `liveactivity doctor` names the idle source the running daemon uses (its `IdleSource`
/// property, issue 28): the real daemon on a private bus, with a real Wayland compositor (sway
/// headless) or a ScreenSaver that answers as kscreenlocker does.
@Suite("doctor's idle line", .timeLimit(.minutes(5))) struct IdleDoctorTests {
    func idleLine(_ f: DaemonFixture) throws -> String? {
        let result = try f.cli(["doctor"])
        return result.stdout.split(separator: "\n").map(String.init).first { $0.contains("] idle: ") }
    }

    @Test(.enabled(if: HeadlessSway.canRun, "needs sway and root (sway runs as nobody)"))
    func theDaemonOnRealSwayTakesIdleFromTheCompositor() throws {
        let sway = try HeadlessSway()
        let f = try DaemonFixture(recorderName: nil, environment: ["WAYLAND_DISPLAY": sway.socketPath])
        #expect(try f.client.property("IdleSource") == .string("Wayland org_kde_kwin_idle"),
                "sway 1.7 (wlroots 0.15) offers the KDE protocol; sway 1.8+ ext-idle-notify-v1")
        #expect(try idleLine(f) == "[ok] idle: Wayland org_kde_kwin_idle (events, no polling); focus sessions pause after 180 s idle")
    }

    /// A ScreenSaver shaped as kscreenlocker's (kscreenlocker v6.3.5 `interface.cpp`: one
    /// connection owns `org.freedesktop.ScreenSaver` and `org.kde.screensaver`, lines 34 and 36;
    /// `GetSessionIdleTime` returns `u` milliseconds, line 73).
    @Test func aKscreenlockerIsNamedWithItsUnit() throws {
        let kscreenlocker = LockedBox<ServerThread?>(nil)
        defer { kscreenlocker.value?.stop() }
        let f = try DaemonFixture(recorderName: nil) { bus in
            kscreenlocker.value = try ServerThread(address: bus.address) { connection, objects, _ in
                try objects.export("/org/freedesktop/ScreenSaver", [DBusInterface(name: "org.freedesktop.ScreenSaver", methods: [
                    DBusMethod("GetSessionIdleTime", outputs: [DBusArgument("seconds", "u")]) { _ in [.uint32(1500)] },
                ])])
                _ = try connection.requestName("org.freedesktop.ScreenSaver", flags: [.doNotQueue])
                _ = try connection.requestName("org.kde.screensaver", flags: [.doNotQueue])
            }
        }
        #expect(try idleLine(f)?.hasPrefix("[ok] idle: org.freedesktop.ScreenSaver (kscreenlocker, milliseconds), "
                                           + "GetSessionIdleTime polled only while a focus session runs") == true)
    }
}
