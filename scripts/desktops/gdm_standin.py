#!/usr/bin/python3
"""A stand-in for GDM on a test's private system bus, so a headless GNOME Shell builds its lock
screen: `loginManager.js` `canLock()` (GNOME Shell 43 to 50) asks `org.gnome.DisplayManager`
at `/org/gnome/DisplayManager/Manager` for the `Version` property of
`org.gnome.DisplayManager.Manager` and needs it to be 3.5.91 or newer; the shell then also calls
`RegisterSession(a{sv})` (`registerSessionWithGDM`). Both are answered here as GDM's
`gdm-manager.xml` declares them; nothing else of GDM is offered.

Usage: gdm_standin.py BUS_ADDRESS VERSION   (runs until killed)
"""
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

MANAGER = "org.gnome.DisplayManager.Manager"


class DisplayManager(dbus.service.Object):
    """`/org/gnome/DisplayManager/Manager`: its `Version`, and a `RegisterSession` that accepts."""

    def __init__(self, bus, version):
        super().__init__(bus, "/org/gnome/DisplayManager/Manager")
        self.version = version

    @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        if interface == MANAGER and name == "Version":
            return dbus.String(self.version)
        raise dbus.exceptions.DBusException(f"no property {interface}.{name}",
                                            name="org.freedesktop.DBus.Error.UnknownProperty")

    @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return {"Version": dbus.String(self.version)} if interface == MANAGER else {}

    @dbus.service.method(MANAGER, in_signature="a{sv}", out_signature="")
    def RegisterSession(self, details):
        pass


def main(address, version):
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(address)
    manager = DisplayManager(bus, version)
    name = dbus.service.BusName("org.gnome.DisplayManager", bus)
    print(f"org.gnome.DisplayManager {version} on {address}", flush=True)
    GLib.MainLoop().run()
    del manager, name


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "48.0")
