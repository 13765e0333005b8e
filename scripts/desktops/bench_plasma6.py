"""What our Plasma 6 applet costs plasmashell (issue 29): Plasma 6.3 (the Debian 13 chroot, as the
`plasma6.3` row of the desktop matrix starts it) with one Pomodoro on our daemon, with our applet
in the panel against the same desktop without it (the daemon's tray item and KDE job card are
there in both). Runs alternate applet, none, applet, none; after 5 s to settle, the window: CPU
(utime + stime of all threads, /proc/PID/stat) and wake-ups (voluntary context switches of every
thread) of plasmashell and of liveactivityd.

Usage: /usr/bin/python3 scripts/desktops/bench_plasma6.py BIN_DIR [--seconds N] [--rounds N]
(root: the chroot). Not part of CI.
"""
import os
import sys
import time

from bench_gnome import difference, ms, process_stats
from chroot_session import ChrootSession, make_chroot
from panel_plasma6 import APPLET, KDE_SESSION, Plasma6Panel
from scenario import Run
from world import World

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def measure(applet, bins, seconds):
    world = World("plasma6-bench")
    session = ChrootSession(make_chroot("trixie"), world)
    desktop = Plasma6Panel("plasma6.3-bench", "trixie", "unused.png")
    try:
        desktop.start_desktop(world, session, bins, REPO)
        base_env = world.env
        world.env = lambda **extra: base_env(**{**KDE_SESSION, **extra})
        run = Run(desktop, world, bins, REPO, world.file("unused.png"))
        run.start_daemon()
        run.la("start", "focus", "session-type=Pomodoro", "task=Write the report", "--id", "focus")
        added = None
        if applet:
            added = str(run.bus_call("org.kde.plasmashell", "/PlasmaShell", "org.kde.PlasmaShell", "evaluateScript",
                                     "s", [f"print(panels()[0].addWidget('{APPLET}').id)"])).strip()
        time.sleep(5)
        pids = {"plasmashell": desktop.shell.pid, "liveactivityd": run.daemon.pid}
        before = {name: process_stats(pid) for name, pid in pids.items()}
        time.sleep(seconds)
        after = {name: process_stats(pid) for name, pid in pids.items()}
        return added, {name: difference(before[name], after[name]) for name in pids}
    finally:
        world.stop()
        session.remove()


def main(argv):
    args = list(argv)
    bins = args.pop(0)
    seconds, rounds = 60.0, 2
    while args:
        arg = args.pop(0)
        if arg == "--seconds":
            seconds = float(args.pop(0))
        elif arg == "--rounds":
            rounds = int(args.pop(0))
        else:
            raise SystemExit(f"bench_plasma6.py: unknown argument {arg}")
    rows = []
    for index in range(1, rounds + 1):
        for applet in (True, False):
            added, result = measure(applet, bins, seconds)
            rows.append((applet, index, added, result))
            print(f"  plasma 6.3: {'applet' if applet else 'none'} {index} done", file=sys.stderr, flush=True)
    print(f"\n### Plasma 6.3: one Pomodoro, {seconds:.0f} s windows, alternating\n")
    print("| run | plasmashell CPU ms / wake-ups | liveactivityd CPU ms / wake-ups |")
    print("| --- | --- | --- |")
    for applet, index, added, r in rows:
        what = f"our applet (id {added})" if applet else "no applet"
        print(f"| {what} {index} | {ms(r['plasmashell'][0])} / {r['plasmashell'][1]} | "
              f"{ms(r['liveactivityd'][0])} / {r['liveactivityd'][1]} |")
    for applet, index, _, r in rows:
        threads = sorted(r["plasmashell"][2].items(), key=lambda item: -item[1])
        print(f"- plasmashell's wake-ups by thread, {'applet' if applet else 'none'} {index}: " + ", ".join(
            f"{name} {count}" for name, count in threads[:8] if count))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
