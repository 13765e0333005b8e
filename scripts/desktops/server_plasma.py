"""KDE Plasma 5.27: plasmashell on Xvfb (after kactivitymanagerd), serving notifications and KDE jobs."""
import os
import subprocess
import time

from scenario import check, na, no, yes
from server_base import Server
from servers_x11 import x_windows
from world import ServerFailed


class Plasma(Server):
    name = "plasma"
    packages = ["plasma-workspace", "plasma-desktop"]

    def start(self, world):
        world.start_xvfb()
        self.env = world.env(QT_QPA_PLATFORM="xcb", XDG_CURRENT_DESKTOP="KDE", KDE_FULL_SESSION="true",
                             XDG_SESSION_TYPE="x11", QT_QUICK_BACKEND="software")
        self.activities = world.spawn("kactivitymanagerd", ["/usr/lib/x86_64-linux-gnu/libexec/kactivitymanagerd"],
                                      env=self.env)
        world.wait_for_name("org.kde.ActivityManager", timeout=30, process=self.activities,
                            process_name="kactivitymanagerd")
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
        subprocess.run(["import", "-window", "root", path], env=world.env(), check=True, timeout=30)
