"""KDE Plasma 5.27: plasmashell on Xvfb (after kactivitymanagerd), serving notifications and KDE jobs."""
import os
import subprocess
import time

import plasma_panel
from scenario import check, na, no, yes
from server_base import Server
from servers_x11 import x_windows
from world import ServerFailed


class Plasma(Server):
    """Plasma as installed: the KDE job backend on, so activities with progress are jobs."""
    name = "plasma"
    packages = ["plasma-workspace", "plasma-desktop"] + plasma_panel.PACKAGES
    jobs = True
    #: our applet and tray item in the panel, checked by OCR (plasma_panel.py)
    panel = True
    screen = (1920, 1080)

    def start(self, world):
        # A full-HD screen: Plasma shows only as many popups as fit, and at 1280x800 an alert
        # card does not fit beside three job popups.
        world.start_xvfb("%dx%d" % self.screen)
        self.env = world.env(QT_QPA_PLATFORM="xcb", XDG_CURRENT_DESKTOP="KDE", KDE_FULL_SESSION="true",
                             XDG_SESSION_TYPE="x11", QT_QUICK_BACKEND="software")
        self.activities = world.spawn("kactivitymanagerd", ["/usr/lib/x86_64-linux-gnu/libexec/kactivitymanagerd"],
                                      env=self.env)
        world.wait_for_name("org.kde.ActivityManager", timeout=30, process=self.activities,
                            process_name="kactivitymanagerd")
        if self.panel:
            plasma_panel.prepare(world, self.env, os.path.dirname(os.path.dirname(os.path.dirname(__file__))),
                                 world.bins)
        self.shell = world.spawn("plasmashell", ["plasmashell", "--no-respawn"], env=self.env)
        world.wait_for_name("org.freedesktop.Notifications", timeout=60, process=self.shell,
                            process_name="plasmashell")
        world.wait_for_name("org.kde.JobViewServer", timeout=30, process=self.shell, process_name="plasmashell")
        time.sleep(3)  # let the panel and desktop settle before counting windows
        self.baseline = {w["id"] for w in x_windows(world, None)}

    def popups(self, world):
        """Windows that appeared after start-up: Plasma's notification and job popups."""
        return [w for w in x_windows(world, None) if w["id"] not in self.baseline]

    def on_screen(self, world):
        return len(self.popups(world))

    def screenshot(self, world, path):
        """The right part of the screen, where Plasma's popups are (the wallpaper makes a full shot big)."""
        subprocess.run(["import", "-window", "root", "-crop", "800x1080+1120+0", "+repage", "-colors", "128", path],
                       env=world.env(), check=True, timeout=30)


class PlasmaCards(Plasma):
    """Plasma with `kde-jobs = off`: every activity is a card."""
    name = "plasma-cards"
    jobs = False
    panel = False
    daemon_config = "kde-jobs = off\n"

    def press(self, world, notification_id, key, label):
        import dbus
        bus = dbus.bus.BusConnection(world.session_address)
        bus.call_blocking("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                          "org.kde.NotificationManager", "InvokeAction", "us", [int(notification_id), key], timeout=10)
        return True, f"Plasma's own InvokeAction({notification_id}, {key})"
