import DBus

/// `org.mpris.MediaPlayer2.Player` as a table, over a `MediaPlayer`. Play, Pause and
/// PlayPause resume and pause the activity (as its card's buttons do); it offers no Next,
/// Previous or Seek (`CanGoNext`, `CanGoPrevious`, `CanSeek` false: the spec says those calls
/// then have no effect) and opens no URIs. `Position` is read on demand and emits no
/// PropertiesChanged (the spec); a jump is announced with `Seeked`.
package enum MediaPlayerPlayerInterface {
    static let name = "org.mpris.MediaPlayer2.Player"

    static func make(_ player: MediaPlayer) -> DBusInterface {
        let nothing: (DBusMethodCall) throws(DBusError) -> [DBusValue] = { _ throws(DBusError) in [] }
        let offset = [DBusArgument("Offset", "x")]
        return DBusInterface(
            name: name,
            methods: [
                DBusMethod("Play") { _ throws(DBusError) in try player.play(); return [] },
                DBusMethod("Pause") { _ throws(DBusError) in try player.pause(); return [] },
                DBusMethod("PlayPause") { _ throws(DBusError) in try player.playPause(); return [] },
                // Stopping would end the activity: a media button is no place for that.
                DBusMethod("Stop", handler: nothing),
                DBusMethod("Next", handler: nothing),
                DBusMethod("Previous", handler: nothing),
                DBusMethod("Seek", inputs: offset, handler: nothing),
                DBusMethod("SetPosition", inputs: [DBusArgument("TrackId", "o"), DBusArgument("Position", "x")], handler: nothing),
                DBusMethod("OpenUri", inputs: [DBusArgument("Uri", "s")]) { _ throws(DBusError) in
                    throw .standard("NotSupported", "Live Activities opens no URIs (SupportedUriSchemes is empty)")
                },
            ],
            properties: [
                DBusProperty("PlaybackStatus", "s", get: { .string(player.playbackStatus()) }),
                DBusProperty("Rate", "d", emitsChange: .const, get: { .double(1) }),
                DBusProperty("MinimumRate", "d", emitsChange: .const, get: { .double(1) }),
                DBusProperty("MaximumRate", "d", emitsChange: .const, get: { .double(1) }),
                DBusProperty("Metadata", "a{sv}", get: { player.track?.metadata ?? .vardict([:]) }),
                DBusProperty("Volume", "d", emitsChange: .const, get: { .double(1) }),
                DBusProperty("Position", "x", emitsChange: .no, get: { .int64(player.positionMicroseconds()) }),
                DBusProperty("CanGoNext", "b", emitsChange: .const, get: { .boolean(false) }),
                DBusProperty("CanGoPrevious", "b", emitsChange: .const, get: { .boolean(false) }),
                // Every timer the player shows can be paused and resumed.
                DBusProperty("CanPlay", "b", emitsChange: .const, get: { .boolean(true) }),
                DBusProperty("CanPause", "b", emitsChange: .const, get: { .boolean(true) }),
                DBusProperty("CanSeek", "b", emitsChange: .const, get: { .boolean(false) }),
                DBusProperty("CanControl", "b", emitsChange: .const, get: { .boolean(true) }),
            ],
            signals: [DBusSignal("Seeked", [DBusArgument("Position", "x")])])
    }
}
