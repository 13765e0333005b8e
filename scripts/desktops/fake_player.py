"""A stand-in music player for the media-key checks: an MPRIS player (python3-dbus) that says
what it plays, answers Play, Pause and PlayPause as a music player does (its status changes and
is announced with PropertiesChanged) and writes each call it gets to a file, one line each.

Usage: fake_player.py BUS_ADDRESS NAME TITLE STATUS CALLS_FILE
  NAME: the part after org.mpris.MediaPlayer2. (e.g. music); STATUS: Playing | Paused | Stopped.
SIGUSR1 toggles its status as a user's click in the player's own window would; SIGTERM ends it.
"""
import signal
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

ROOT = "org.mpris.MediaPlayer2"
PLAYER = "org.mpris.MediaPlayer2.Player"
PROPERTIES = "org.freedesktop.DBus.Properties"


class Player(dbus.service.Object):
    def __init__(self, bus, name, title, status, calls):
        super().__init__(bus, "/org/mpris/MediaPlayer2")
        self.title, self.status, self.calls = title, status, calls
        self.bus_name = dbus.service.BusName(f"{ROOT}.{name}", bus)  # held while the process lives

    def note(self, call):
        with open(self.calls, "a") as f:
            f.write(call + "\n")

    def set_status(self, status):
        if status != self.status:
            self.status = status
            self.PropertiesChanged(PLAYER, {"PlaybackStatus": status}, [])

    def player_properties(self):
        return {"PlaybackStatus": self.status, "Rate": 1.0, "MinimumRate": 1.0, "MaximumRate": 1.0, "Volume": 1.0,
                "Position": dbus.Int64(0), "CanGoNext": False, "CanGoPrevious": False, "CanPlay": True,
                "CanPause": True, "CanSeek": False, "CanControl": True,
                "Metadata": dbus.Dictionary({"mpris:trackid": dbus.ObjectPath("/org/example/track/1"),
                                             "xesam:title": self.title,
                                             "xesam:artist": dbus.Array(["Test Artist"], signature="s"),
                                             "mpris:length": dbus.Int64(240_000_000)}, signature="sv")}

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.GetAll(interface)[name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        if interface == ROOT:
            return {"Identity": "Test Music", "CanQuit": False, "CanRaise": False, "HasTrackList": False,
                    "SupportedUriSchemes": dbus.Array([], signature="s"),
                    "SupportedMimeTypes": dbus.Array([], signature="s")}
        return self.player_properties() if interface == PLAYER else {}

    @dbus.service.method(PROPERTIES, in_signature="ssv")
    def Set(self, interface, name, value):
        pass

    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    @dbus.service.method(PLAYER)
    def Play(self):
        self.note("Play")
        self.set_status("Playing")

    @dbus.service.method(PLAYER)
    def Pause(self):
        self.note("Pause")
        self.set_status("Paused")

    @dbus.service.method(PLAYER)
    def PlayPause(self):
        self.note("PlayPause")
        self.set_status("Paused" if self.status == "Playing" else "Playing")

    @dbus.service.method(PLAYER)
    def Stop(self):
        self.note("Stop")
        self.set_status("Stopped")


def main(address, name, title, status, calls):
    DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(address)
    player = Player(bus, name, title, status, calls)
    loop = GLib.MainLoop()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1,
                         lambda: player.set_status("Paused" if player.status == "Playing" else "Playing") or True)
    player.note("ready")
    loop.run()


if __name__ == "__main__":
    main(*sys.argv[1:6])
