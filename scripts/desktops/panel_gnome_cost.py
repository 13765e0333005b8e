"""What a live activity costs GNOME Shell with the island: the daemon's signals it receives and
the shell's CPU time, over a window with a Pomodoro session live and over one with nothing live.

Usage: /usr/bin/python3 scripts/desktops/panel_gnome_cost.py BIN_DIR [SECONDS]   (default 120)
Runs GNOME Shell 43 headless as `desktop-matrix gnome-panel` does (our extension and the
AppIndicator extension enabled, cards on). Not part of CI: it only reports.
"""
import collections
import os
import subprocess
import sys
import time

from panel_gnome import BUS, GnomePanel, PanelRun
from world import World


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def window(bins, seconds, live):
    world = World("gnome-cost")
    shell = GnomePanel()
    try:
        world.start_bus("session")
        run = PanelRun(shell, world, bins, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                       world.path("shots"))
        shell.data_dirs = run.install() + ":/usr/share"
        shell.start(world)
        run.start_daemon()
        owner = str(shell.bus(world).call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                   "org.freedesktop.DBus", "GetNameOwner", "s", [BUS]))
        if live:
            run.la("start", "focus", "session-type=Pomodoro", "task=Write", "--id", "focus")
        time.sleep(3)  # let the start settle before the window opens
        monitor = subprocess.Popen(["dbus-monitor", "--address", world.session_address, f"sender='{owner}'"],
                                   stdout=subprocess.PIPE, text=True)
        before = cpu_seconds(shell.shell.pid)
        time.sleep(seconds)
        used = cpu_seconds(shell.shell.pid) - before
        monitor.terminate()
        counts = collections.Counter()
        for line in monitor.communicate()[0].splitlines():
            if line.startswith("signal") and "member=" in line:
                member = line.split("member=")[1].split()[0]
                if member not in ("NameAcquired", "NameLost"):  # the monitor's own
                    counts[member] += 1
        return counts, used
    finally:
        world.stop()


def main(argv):
    bins, seconds = argv[0], float(argv[1]) if len(argv) > 1 else 120.0
    for live in (True, False):
        counts, used = window(bins, seconds, live)
        what = "a Pomodoro session live" if live else "nothing live"
        print(f"{what}: {sum(counts.values())} signals from the daemon in {seconds:.0f} s {dict(counts)}; "
              f"gnome-shell CPU {used:.2f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
