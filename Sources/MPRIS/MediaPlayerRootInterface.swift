import DBus

/// `org.mpris.MediaPlayer2` as a table: who the player is. Live Activities has no window to
/// raise, no way to quit from a media applet (the daemon serves more than the player) and no
/// track list; it opens no URIs.
package enum MediaPlayerRootInterface {
    static let name = "org.mpris.MediaPlayer2"
    static let identity = "Live Activities"
    /// The app id cards carry (DESIGN.md, "Hotkeys and app identity"); Plasma takes the
    /// player's icon from this desktop entry when one is installed.
    static let desktopEntry = "io.github.liveactivities"

    static func make() -> DBusInterface {
        DBusInterface(
            name: name,
            methods: [
                // The spec: without CanRaise / CanQuit these have no effect.
                DBusMethod("Raise") { _ throws(DBusError) in [] },
                DBusMethod("Quit") { _ throws(DBusError) in [] },
            ],
            properties: [
                DBusProperty("CanQuit", "b", emitsChange: .const, get: { .boolean(false) }),
                DBusProperty("CanRaise", "b", emitsChange: .const, get: { .boolean(false) }),
                DBusProperty("HasTrackList", "b", emitsChange: .const, get: { .boolean(false) }),
                DBusProperty("Identity", "s", emitsChange: .const, get: { .string(identity) }),
                DBusProperty("DesktopEntry", "s", emitsChange: .const, get: { .string(desktopEntry) }),
                DBusProperty("SupportedUriSchemes", "as", emitsChange: .const, get: { .array(elementSignature: "s", []) }),
                DBusProperty("SupportedMimeTypes", "as", emitsChange: .const, get: { .array(elementSignature: "s", []) }),
            ])
    }
}
