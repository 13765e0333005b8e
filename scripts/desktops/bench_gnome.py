"""The whole GNOME desktop with one Pomodoro running, side by side (issue 29): GNOME Shell with our
island and our daemon, against GNOME Shell with Focus Timer's engine (gnome-pomodoro) and its own
GNOME Shell extension (`pomodoro@arun.codito.in`, the `gnome-shell-pomodoro` package: 0.22 on
Debian 12 for GNOME 43, 0.27 in the Debian 13 chroot for GNOME 48, where scripts/desktops/chroot
installs it).

Usage: /usr/bin/python3 scripts/desktops/bench_gnome.py BIN_DIR [--seconds N] [--rounds N]
       [--shells 43,48] [--settle N] [--peer-indicator text|icon] [--perf DIR]
BIN_DIR holds the built liveactivityd and liveactivity (`scripts/bench` passes its release build).

Each run is a fresh headless shell on private buses, as the desktop matrix starts it
(panel_gnome.py: GNOME 43 on the host; panel_gnome_chroot.py: 48 in the Debian 13 chroot), with
only the extensions of its side enabled (and the test-only one that lets Eval read the top bar):
- ours: `make install-files` into a prefix, both builds of our extension enabled (the one that
  fits runs), `liveactivityd` on the bus, `liveactivity start focus session-type=Pomodoro`;
- peer: `gnome-pomodoro --no-default-window` on the shell's Wayland display, its extension
  enabled, `org.gnome.Pomodoro.Start()` on its bus API.
Both sides show their time in the top bar (checked through Eval before and after the window) and
post their own notifications as they would on a desktop. After `--settle` seconds (default 3),
the window: CPU time (utime + stime of all threads, /proc/PID/stat) and wake-ups (voluntary
context switches of every thread, /proc/PID/task/*/status, a thread counted from zero if it
started in the window) of gnome-shell, of the notification service (the gjs
org.gnome.Shell.Notifications helper) and of the timer's process. Runs alternate ours, peer,
ours, peer. Prints a Markdown table per shell and the ratios of issue 29's targets.
`--perf DIR` also records `perf record -g` of gnome-shell over each window into DIR.
"""
import os
import subprocess
import sys
import time

from panel_gnome import UUID, UUID45, PanelRun
from panel_gnome_chroot import ChrootGnomeShell, ChrootPanelRun
from servers_wayland import GnomeShell
from world import ServerFailed, World

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEER_UUID = "pomodoro@arun.codito.in"
TICK = os.sysconf("SC_CLK_TCK")

#: The top bar's text of each side: our island's label, the peer's indicator label.
LABELS_JS = """(() => JSON.stringify((() => {
  const St = imports.gi.St;
  const area = imports.ui.main.panel.statusArea;
  const texts = actor => actor.get_children().flatMap(c => !c.visible ? [] :
      c instanceof St.Label ? [c.text] : texts(c));
  const out = {};
  for (const key of ['liveactivities', 'gnome-pomodoro'])
    if (area[key]) out[key] = area[key].visible ? texts(area[key]).join(' ') : null;
  return out;
})()))()"""


def process_stats(pid):
    """(CPU seconds of the whole process, {thread id: (name, voluntary context switches)})."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / TICK
    threads = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                status = dict(line.split(":", 1) for line in f if ":" in line)
            threads[tid] = (status["Name"].strip(), int(status["voluntary_ctxt_switches"]))
        except (OSError, KeyError, ValueError):
            continue  # the thread ended meanwhile
    return cpu, threads


def difference(before, after):
    """(CPU seconds, wake-ups, {thread name: wake-ups}) over the window."""
    cpu = after[0] - before[0]
    by_name = {}
    for tid, (name, count) in after[1].items():
        by_name[name] = by_name.get(name, 0) + count - before[1].get(tid, (name, 0))[1]
    return cpu, sum(by_name.values()), by_name


#: The peer's top-bar indicator: "text" (MM:SS, once a second, like our label) or its default "icon"
#: (a pie redrawn every 1/120 of the Pomodoro). Set by --peer-indicator.
PEER_INDICATOR = ["text"]


class BenchShell:
    """Mixin: the extensions of one side; lockable (a GDM stand-in), since the peer's extension
    needs `Main.screenShield` (without it its enable() stops half-way); the peer's indicator type."""
    lockable = True

    def __init__(self, extensions):
        self.extensions = extensions
        self.extra_settings = f"[org/gnome/pomodoro/plugins/gnome]\nindicator-type='{PEER_INDICATOR[0]}'\n"


class HostShell(BenchShell, GnomeShell):
    """GNOME Shell 43 on the host, with the extensions of one side."""
    version = "43"
    name = "gnome-bench"

    def make_world(self):
        return World(self.name)

    def panel_run(self, world, bins):
        return PanelRun(self, world, bins, REPO, world.path("shots"))

    def peer_installed(self):
        return os.path.isfile("/usr/bin/gnome-pomodoro") and os.path.isdir(
            f"/usr/share/gnome-shell/extensions/{PEER_UUID}")


class ChrootShell(BenchShell, ChrootGnomeShell, GnomeShell):
    """GNOME Shell 48 in the Debian 13 chroot (scripts/desktops/chroot trixie)."""
    version = "48"
    suite = "trixie"
    name = "gnome48-bench"

    def make_world(self):
        return ChrootGnomeShell.make_world(self, keep=False)

    def panel_run(self, world, bins):
        return ChrootPanelRun(self, world, bins, REPO, world.path("shots"))

    def peer_installed(self):
        from gnome_chroot_world import make_chroot
        root = make_chroot(self.suite)
        return os.path.isfile(os.path.join(root, "usr/bin/gnome-pomodoro")) and os.path.isdir(
            os.path.join(root, f"usr/share/gnome-shell/extensions/{PEER_UUID}"))


def labels(shell, world):
    try:
        return shell.eval(world, LABELS_JS) or {}
    except Exception as error:  # noqa: BLE001 - reported beside the figures
        return {"error": str(error)}


def start_ours(shell_class, bins):
    shell = shell_class([UUID, UUID45])
    world = shell.make_world()
    world.start_bus("session")
    run = shell.panel_run(world, bins)
    installed = run.install()
    shell.data_dirs = installed + ":/usr/share" if installed else None
    shell.start(world)
    run.start_daemon()
    run.la("start", "focus", "session-type=Pomodoro", "task=Write report", "--id", "focus")
    return shell, world, run.daemon.pid, "liveactivityd"


def start_peer(shell_class, bins):
    shell = shell_class([PEER_UUID])
    world = shell.make_world()
    world.start_bus("session")
    shell.data_dirs = None
    shell.start(world)
    runtime = world.runtime
    display = next((n for n in sorted(os.listdir(runtime)) if n.startswith("wayland-") and not n.endswith(".lock")),
                   "wayland-0")
    env = world.env(GSETTINGS_BACKEND="keyfile", XDG_SESSION_TYPE="wayland", XDG_CURRENT_DESKTOP="GNOME",
                    WAYLAND_DISPLAY=display, GDK_BACKEND="wayland")
    timer = world.spawn("gnome-pomodoro", ["gnome-pomodoro", "--no-default-window"], env=env)
    world.wait_for_name("org.gnome.Pomodoro", timeout=30, process=timer, process_name="gnome-pomodoro")
    shell.bus(world).call_blocking("org.gnome.Pomodoro", "/org/gnome/Pomodoro", "org.gnome.Pomodoro", "Start", "", [],
                                   timeout=20)
    return shell, world, timer.pid, "gnome-pomodoro"


def measure(side, shell_class, bins, seconds, settle, perf_dir, index):
    starter = start_ours if side == "ours" else start_peer
    shell = world = None
    try:
        shell, world, timer_pid, timer_name = starter(shell_class, bins)
        deadline = time.time() + 15
        key = "liveactivities" if side == "ours" else "gnome-pomodoro"
        while time.time() < deadline and not labels(shell, world).get(key):
            time.sleep(0.3)
        time.sleep(settle)
        shown_before = labels(shell, world).get(key)
        pids = {"gnome-shell": shell.shell.pid, "notifications": shell.helper.pid, timer_name: timer_pid}
        recorder = None
        if perf_dir:
            out = os.path.join(perf_dir, f"gnome{shell_class.version}-{side}-{index}.data")
            recorder = subprocess.Popen(["perf", "record", "-q", "-g", "-F", "499", "-o", out, "-p",
                                         str(shell.shell.pid)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        before = {name: process_stats(pid) for name, pid in pids.items()}
        time.sleep(seconds)
        after = {name: process_stats(pid) for name, pid in pids.items()}
        if recorder:
            recorder.send_signal(2)
            recorder.wait(timeout=60)
        shown_after = labels(shell, world).get(key)
        result = {name: difference(before[name], after[name]) for name in pids}
        result["timer"] = result.pop(timer_name)
        result["timer_name"] = timer_name
        result["shown"] = (shown_before, shown_after)
        return result
    finally:
        if world is not None:
            world.stop()


def ms(seconds):
    return f"{seconds * 1000:.0f}"


def report(version, seconds, runs):
    print(f"\n### GNOME Shell {version}: one Pomodoro, {seconds:.0f} s windows, alternating\n")
    print("| run | top bar (before → after) | gnome-shell CPU ms / wake-ups | notification service | "
          "timer process | sum CPU ms / wake-ups |")
    print("| --- | --- | --- | --- | --- | --- |")
    for side, index, r in runs:
        total = [sum(r[k][i] for k in ("gnome-shell", "notifications", "timer")) for i in (0, 1)]
        print(f"| {side} {index} | {r['shown'][0]!r} → {r['shown'][1]!r} | {ms(r['gnome-shell'][0])} / "
              f"{r['gnome-shell'][1]} | {ms(r['notifications'][0])} / {r['notifications'][1]} | "
              f"{r['timer_name']} {ms(r['timer'][0])} / {r['timer'][1]} | {ms(total[0])} / {total[1]} |")

    def mean(side, key, i):
        values = [r[key][i] if key != "sum" else sum(r[k][i] for k in ("gnome-shell", "notifications", "timer"))
                  for s, _, r in runs if s == side]
        return sum(values) / len(values) if values else None
    shell_ours, shell_peer = mean("ours", "gnome-shell", 0), mean("peer", "gnome-shell", 0)
    wake_ours, wake_peer = mean("ours", "gnome-shell", 1), mean("peer", "gnome-shell", 1)
    sum_ours, sum_peer = mean("ours", "sum", 0), mean("peer", "sum", 0)
    if shell_peer is None or shell_ours is None:
        print("\n(no peer runs: nothing to compare)")
        return
    ratio = shell_ours / shell_peer if shell_peer else float("inf")
    print(f"\n- gnome-shell CPU, ours / peer (means): {ms(shell_ours)} / {ms(shell_peer)} ms = {ratio:.2f}× "
          f"(target ≤ 1.2×: {'yes' if ratio <= 1.2 else 'no'})")
    print(f"- gnome-shell wake-ups, ours / peer (means): {wake_ours:.0f} / {wake_peer:.0f} "
          f"(target ours ≤ peer: {'yes' if wake_ours <= wake_peer else 'no'})")
    print(f"- whole desktop (shell + notification service + timer) CPU, ours / peer (means): {ms(sum_ours)} / "
          f"{ms(sum_peer)} ms (target ours below: {'yes' if sum_ours < sum_peer else 'no'})")
    for side, index, r in runs:
        threads = sorted(r["gnome-shell"][2].items(), key=lambda item: -item[1])
        print(f"- gnome-shell's wake-ups by thread, {side} {index}: " + ", ".join(
            f"{name} {count}" for name, count in threads if count))
    pairs = [(a[2]["gnome-shell"][0], b[2]["gnome-shell"][0]) for a, b in zip(runs[0::2], runs[1::2])]
    print("- per pair, gnome-shell CPU ours / peer: " + ", ".join(
        f"{o / p:.2f}×" if p else "∞" for o, p in pairs))


def main(argv):
    args = list(argv)
    bins = args.pop(0)
    seconds, rounds, settle, shells, perf_dir = 60.0, 2, 3.0, ["43"], None
    while args:
        arg = args.pop(0)
        if arg == "--seconds":
            seconds = float(args.pop(0))
        elif arg == "--rounds":
            rounds = int(args.pop(0))
        elif arg == "--settle":
            settle = float(args.pop(0))
        elif arg == "--shells":
            shells = args.pop(0).split(",")
        elif arg == "--peer-indicator":
            PEER_INDICATOR[0] = args.pop(0)
        elif arg == "--perf":
            perf_dir = os.path.abspath(args.pop(0))
            os.makedirs(perf_dir, exist_ok=True)
        else:
            raise SystemExit(f"bench_gnome.py: unknown argument {arg}")
    classes = {"43": HostShell, "48": ChrootShell}
    for version in shells:
        shell_class = classes[version]
        peer = shell_class([]).peer_installed()
        started = time.time()
        runs = []
        for index in range(1, rounds + 1):
            for side in ("ours", "peer"):
                if side == "peer" and not peer:
                    continue
                try:
                    runs.append((side, index, measure(side, shell_class, bins, seconds, settle, perf_dir, index)))
                except ServerFailed as error:
                    print(f"GNOME Shell {version}, {side} {index}: did not start: {str(error)[:2000]}", flush=True)
                    return 1
                print(f"  GNOME Shell {version}: {side} {index} done ({time.time() - started:.0f} s)", file=sys.stderr,
                      flush=True)
        if not peer:
            print(f"\nGNOME Shell {version}: gnome-shell-pomodoro is not installed there; ours only.")
        report(version, seconds, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
