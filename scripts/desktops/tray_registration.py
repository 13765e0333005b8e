#!/usr/bin/python3
"""Does GNOME's AppIndicator extension keep our tray item at registration? (issue 28, row 10)

Usage: /usr/bin/python3 scripts/desktops/tray_registration.py BIN_DIR SHELL [RUNS]
SHELL: gnome43 (the host), gnome48 (the trixie chroot) or gnome50 (the forky chroot); RUNS
defaults to 20. Each run starts a fresh headless GNOME Shell with ubuntu-appindicators and our
extension (as the gnome*-panel rows do), starts the daemon and one activity, and reads the
watcher's RegisteredStatusNotifierItems 3 s later, with the shell's log line if the extension
dropped the item. Exit status 0 only if the item was kept in every run. Not part of CI (about
5 s a run); the issue's reproduction, kept to show the fix holds.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from panel_gnome import GnomePanel, PanelRun  # noqa: E402
from world import World  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def one_run(bins, shell_name):
    """Starts a shell, the daemon and one activity; returns (kept, the shell's drop warning)."""
    if shell_name == "gnome43":
        shell, world = GnomePanel(), World("tray-registration")
        shell.lockable = False
        world.start_bus("session")
        run = PanelRun(shell, world, bins, REPO, world.path("shots"))
        shell.data_dirs = run.install() + ":/usr/share"
    else:
        import panel_gnome_chroot
        shell = panel_gnome_chroot.GnomePanelChroot(f"{shell_name}-tray", {"gnome48": "trixie", "gnome50": "forky"}[
            shell_name], shell_name)
        shell.lockable = False
        world = shell.make_world(keep=False)
        world.start_bus("session")
        run = panel_gnome_chroot.ChrootPanelRun(shell, world, bins, REPO, world.path("shots"))
        run.install()
        shell.data_dirs = None
    try:
        shell.start(world)
        run.start_daemon()
        run.la("start", "generic", "title=Hello", "--id", "hello")
        time.sleep(3)  # the reading moment; the drop happens about 1.3 s after registration
        items = [str(i) for i in shell.bus(world).call_blocking(
            "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher", "org.freedesktop.DBus.Properties", "Get", "ss",
            ["org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems"], timeout=10)]
        dropped = [line for line in world.log("gnome-shell", tail=100000).splitlines() if "While initalizing proxy" in line]
        return bool(items) and not dropped, dropped
    finally:
        world.stop()


def main(argv):
    bins, shell_name = argv[0], argv[1]
    runs = int(argv[2]) if len(argv) > 2 else 20
    kept = 0
    for n in range(runs):
        ok, dropped = one_run(bins, shell_name)
        kept += ok
        print(f"{shell_name} run {n + 1}: {'kept' if ok else 'DROPPED ' + ' '.join(dropped[-1:])}", flush=True)
    print(f"{shell_name}: the item kept in {kept} of {runs} runs")
    return 0 if kept == runs else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
