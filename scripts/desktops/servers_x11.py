"""The X11 notification servers: dunst, xfce4-notifyd and notification-daemon, each on Xvfb."""
import json
import os
import subprocess
import time

from server_base import Server
from scenario import check, no, yes
from world import ServerFailed


def x_windows(world, pid_names):
    """Mapped top-level windows of the display (id, name, x, y, width, height)."""
    result = subprocess.run(["xwininfo", "-root", "-children"], env=world.env(), capture_output=True, text=True,
                            timeout=10)
    windows = []
    for line in result.stdout.splitlines():
        line = line.strip()
        if not line.startswith("0x"):
            continue
        window = line.split()[0]
        info = subprocess.run(["xwininfo", "-id", window], env=world.env(), capture_output=True, text=True,
                              timeout=10).stdout
        fields = {}
        for row in info.splitlines():
            if ":" in row:
                key, _, value = row.strip().partition(":")
                fields[key.strip()] = value.strip()
        if fields.get("Map State") != "IsViewable":
            continue
        name = line.split('"')[1] if '"' in line else ""
        width, height = int(fields.get("Width", 0)), int(fields.get("Height", 0))
        if width <= 1 or height <= 1:
            continue
        windows.append({"id": window, "name": name, "x": int(fields.get("Absolute upper-left X", 0)),
                        "y": int(fields.get("Absolute upper-left Y", 0)), "width": width, "height": height})
    return windows


class X11Server(Server):
    """What the X11 servers share: Xvfb, a root-window screenshot, windows as the on-screen count."""
    x11 = True
    process_name = None

    def start_display(self, world):
        world.start_xvfb()

    def screenshot(self, world, path):
        subprocess.run(["import", "-window", "root", path], env=world.env(), check=True, timeout=30)

    def on_screen(self, world):
        """How many notification bubbles are on screen (mapped windows of the display)."""
        return len(x_windows(world, None))


class Dunst(X11Server):
    name = "dunst"
    packages = ["dunst", "tesseract-ocr"]  # OCR: segments_dunst.py reads the bubble
    draws_value = True

    def start(self, world):
        self.start_display(world)
        picker = world.file("dunst", "pick-action")
        self.menu_log = world.file("dunst", "menu.log")
        with open(picker, "w") as f:
            f.write("#!/bin/sh\n# dunst's context menu (dmenu): log the offered entries, pick the wanted one\n"
                    f"tee -a '{self.menu_log}' | grep -m1 -F \"$(cat '{world.file('dunst', 'wanted')}')\"\n")
        os.chmod(picker, 0o755)
        config = world.file("dunst", "dunstrc")
        with open(config, "w") as f:
            f.write(f"""[global]
    font = DejaVu Sans 10
    width = (300, 460)
    origin = top-right
    offset = 10x40
    show_indicators = no
    sticky_history = yes
    history_length = 50
    dmenu = {picker}
    progress_bar = true
""")
        self.process = world.spawn("dunst", ["dunst", "-config", config])
        world.wait_for_name("org.freedesktop.Notifications", process=self.process, process_name="dunst")

    def ctl(self, world, *args):
        result = subprocess.run(["dunstctl", *args], env=world.env(), capture_output=True, text=True, timeout=15)
        return result.stdout.strip()

    def on_screen(self, world):
        return int(self.ctl(world, "count", "displayed") or -1)

    def history(self, world):
        data = json.loads(self.ctl(world, "history") or "{}").get("data", [[]])
        return [{key: value.get("data") for key, value in entry.items()} for entry in (data[0] if data else [])]

    def press(self, world, card, key, label):
        with open(world.file("dunst", "wanted"), "w") as f:
            f.write(label)
        self.ctl(world, "context")
        return True, "dunstctl context: dunst's own menu chose \"%s\"" % label

    def after_end(self, run):
        """dunst keeps closed cards in its history with the progress it drew: the fast's must be there."""
        fast = [n for n in run.notifies() if n["app"] == "Fasting" and "value" in n["hints"]]
        entries = [e for e in self.history(run.world) if e.get("id") == run.ids["fast"]]
        if not fast or not entries:
            run.row["progress visible"] = no(f"dunst's history has no fasting card ({len(entries)})")
            return
        drawn = entries[0].get("progress")
        sent = fast[-1]["hints"]["value"]
        if drawn != sent:
            run.row["progress visible"] = no(f"dunst drew progress {drawn}, we sent {sent}")
        else:
            run.row["progress visible"] = yes(f"int32 value hint; dunst's history says it drew {drawn}%")
        import segments_dunst
        segments_dunst.play(run)


class Xfce4Notifyd(X11Server):
    name = "xfce4-notifyd"
    packages = ["xfce4-notifyd"]

    def start(self, world):
        self.start_display(world)
        self.process = world.spawn("xfce4-notifyd", ["/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd"])
        world.wait_for_name("org.freedesktop.Notifications", process=self.process, process_name="xfce4-notifyd")


class NotificationDaemon(X11Server):
    name = "notification-daemon"
    packages = ["notification-daemon"]
    #: it shows one bubble at a time (the rest queue behind a never-expiring card)
    max_visible = 1

    def start(self, world):
        self.start_display(world)
        self.process = world.spawn("notification-daemon", ["/usr/lib/notification-daemon/notification-daemon"])
        world.wait_for_name("org.freedesktop.Notifications", process=self.process,
                            process_name="notification-daemon")
