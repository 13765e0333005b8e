#!/usr/bin/env python3
"""Idle from the real sources (issue 28), in the Debian 13 chroot (scripts/desktops/chroot), with
our daemon and CLI built on the host, on the chroot's session bus:

- `x11`: ksmserver on Xvfb, which hosts kscreenlocker's org.freedesktop.ScreenSaver and owns
  org.kde.screensaver on the same connection. Checks that its GetSessionIdleTime counts
  milliseconds (about 1000 more per second without input, a few after an xdotool move), that
  `liveactivity doctor` names "(kscreenlocker, milliseconds)", and that a focus session started
  1.5 s after a move is still running once the daemon has read the idle time (ksmserver's
  reply, seen by dbus-monitor), and is paused once the user has been idle `idle-pause-after`
  (30 s), not before. (Today's main, read in seconds: paused at once, or after 13 s when its
  first reading came within 17 ms of the move.)
- `wayland`: `kwin_wayland --virtual`; the daemon gets WAYLAND_DISPLAY (the socket's host path)
  and must say "Wayland ext-idle-notify-v1"; a focus session pauses after 30 s idle. Under
  Wayland KWin itself hosts kscreenlocker (org.freedesktop.ScreenSaver): its
  GetSessionIdleTime answers NotSupported.
- `sway`: sway 1.10 headless as nobody (ext-idle-notify-v1; Debian 12's sway 1.7 offers only
  org_kde_kwin_idle, which WaylandIdleTests covers): "Wayland ext-idle-notify-v1", a pause after
  30 s, and the return after `swaymsg seat seat0 cursor move` (the daemon's log).

Usage: scripts/desktops/idle_sources.py [x11] [wayland] [sway]   (all by default; about 2 min)
Prints one line per check, `idle_sources: N passed, N failed`; exits 1 when one failed.
"""
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from chroot_session import ChrootSession, make_chroot  # noqa: E402
from world import World  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
BUS = "io.github.liveactivities.LiveActivities1"
KDE = {"XDG_CURRENT_DESKTOP": "KDE", "KDE_FULL_SESSION": "true", "KDE_SESSION_VERSION": "6"}
results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(f"[{'ok' if ok else 'XX'}] {name}" + (f": {detail}" if detail else ""), flush=True)


def binaries():
    path = os.environ.get("PATH", "")
    if os.path.isdir("/opt/swift/usr/bin"):
        path = "/opt/swift/usr/bin:" + path
    env = dict(os.environ, PATH=path)
    subprocess.run(["swift", "build", "--product", "liveactivityd"], cwd=REPO, env=env, check=True, capture_output=True)
    subprocess.run(["swift", "build", "--product", "liveactivity"], cwd=REPO, env=env, check=True, capture_output=True)
    return subprocess.run(["swift", "build", "--show-bin-path"], cwd=REPO, env=env, capture_output=True,
                          text=True, check=True).stdout.strip()


def idle_time(world):
    """GetSessionIdleTime as the ScreenSaver answers it: the number, or the error's name."""
    result = subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.ScreenSaver",
                             "/org/freedesktop/ScreenSaver", "org.freedesktop.ScreenSaver.GetSessionIdleTime"],
                            env=world.env(), capture_output=True, text=True, timeout=10)
    if result.returncode != 0:
        return result.stderr.strip()
    return int(result.stdout.split()[-1])


def owner(world, name):
    result = subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus",
                             "/org/freedesktop/DBus", "org.freedesktop.DBus.GetNameOwner", f"string:{name}"],
                            env=world.env(), capture_output=True, text=True, timeout=10)
    return result.stdout.split()[-1] if result.returncode == 0 else None


def reading_answered(record):
    """Whether dbus-monitor's `record` holds a GetSessionIdleTime call and the reply to it (sent to
    the caller, its reply_serial the call's serial)."""
    calls = re.findall(r"method call .*? sender=(\S+) -> destination=\S+ serial=(\d+) .*?member=GetSessionIdleTime", record)
    return any(re.search(rf"method return .*? -> destination={re.escape(caller)} serial=\d+ reply_serial={serial}\b", record)
               for caller, serial in calls)


class Daemon:
    """Our daemon on the world's bus with `idle-pause-after = 30`, and the CLI."""

    def __init__(self, world, bins, **extra):
        self.world, self.bins = world, bins
        home = world.path("daemon")
        with open(world.file("daemon", "config", "liveactivities", "liveactivityd.conf"), "w") as f:
            f.write("idle-pause-after = 30\nquiet-desktop = off\ncards = off\ntray = off\n")
        self.env = world.env(HOME=home, XDG_STATE_HOME=os.path.join(home, "state"),
                             XDG_CONFIG_HOME=os.path.join(home, "config"), XDG_DATA_HOME=os.path.join(home, "data"),
                             LIVEACTIVITIES_KINDS_DIR=os.path.join(REPO, "data", "kinds"), **KDE, **extra)
        self.process = world.spawn("liveactivityd", [os.path.join(bins, "liveactivityd")], env=self.env)
        world.wait_for_name(BUS, process=self.process, process_name="liveactivityd")

    def cli(self, *args):
        return subprocess.run([os.path.join(self.bins, "liveactivity"), *args], env=self.env, capture_output=True,
                              text=True, timeout=30).stdout

    def idle_line(self):
        return next((line for line in self.cli("doctor").splitlines() if "idle:" in line), "")

    def status(self, id):
        return next((line.split()[-1] for line in self.cli("get", id).splitlines() if line.startswith("status")), "")

    def wait_status(self, id, wanted, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.status(id) == wanted:
                return True
            time.sleep(0.5)
        return False

    def log(self):
        return self.world.log("liveactivityd", tail=200)


def x11(root, bins):
    world = World("idle-x11")
    session = ChrootSession(root, world)
    try:
        session.start_bus()
        session.start_xvfb("1280x800")
        session.spawn("ksmserver", ["ksmserver"], session.env(**KDE, XDG_SESSION_TYPE="x11", QT_QPA_PLATFORM="xcb"))
        world.wait_for_name("org.freedesktop.ScreenSaver", timeout=30)
        same = owner(world, "org.freedesktop.ScreenSaver") == owner(world, "org.kde.screensaver")
        check("x11: ksmserver owns org.freedesktop.ScreenSaver and org.kde.screensaver on one connection", same,
              f"{owner(world, 'org.freedesktop.ScreenSaver')} / {owner(world, 'org.kde.screensaver')}")
        first = idle_time(world)
        time.sleep(2)
        second = idle_time(world)
        check("x11: GetSessionIdleTime counts milliseconds", isinstance(first, int) and isinstance(second, int)
              and 1800 <= second - first <= 2600, f"{first} then, 2 s later, {second}")
        subprocess.run(["xdotool", "mousemove", "20", "20"], env=world.env(), timeout=10)
        after = idle_time(world)
        check("x11: an xdotool move resets it", isinstance(after, int) and after < 1000, f"{after}")

        daemon = Daemon(world, bins)
        line = daemon.idle_line()
        check("x11: doctor names the source", "org.freedesktop.ScreenSaver (kscreenlocker, milliseconds)" in line, line)
        # The daemon's readings, as the bus carries them (the calls and ksmserver's answers).
        world.spawn("dbus-monitor", ["dbus-monitor", "--session", "member='GetSessionIdleTime'", "type='method_return'"])
        deadline = time.time() + 10
        while time.time() < deadline and "NameAcquired" not in world.log("dbus-monitor"):
            time.sleep(0.05)  # it prints its own NameAcquired once it is a monitor
        subprocess.run(["xdotool", "mousemove", "40", "40"], env=world.env(), timeout=10)
        moved = time.time()
        time.sleep(1.5)  # the user: active 1.5 s before the session starts (1500 ms)
        id = daemon.cli("start", "focus", "minutes=25").strip()
        deadline = time.time() + 10
        answered = False
        while time.time() < deadline and not answered:
            answered = reading_answered(world.log("dbus-monitor", tail=2000))
            time.sleep(0.1)
        early = daemon.status(id)
        check("x11: the daemon read the idle time as the session started", answered)
        check("x11: a session started 1.5 s after input is not paused", early == "active", f"{id}: {early}")
        paused = daemon.wait_status(id, "paused", 45)
        waited = time.time() - moved
        check("x11: it pauses once idle 30 s", paused and waited >= 29, f"after {waited:.1f} s")
    finally:
        world.stop()
        session.remove()


def wayland(root, bins):
    world = World("idle-wayland")
    session = ChrootSession(root, world)
    try:
        session.start_bus()
        kwin = session.spawn("kwin_wayland", ["kwin_wayland", "--virtual", "--socket", "wayland-idle",
                                              "--no-global-shortcuts", "--width", "1280", "--height", "800"],
                             session.env(**KDE, XDG_SESSION_TYPE="wayland", QT_QPA_PLATFORM="wayland"))
        socket = session.host(os.path.join(session.runtime, "wayland-idle"))
        deadline = time.time() + 30
        while time.time() < deadline and not os.path.exists(socket) and kwin.poll() is None:
            time.sleep(0.2)
        check("wayland: kwin_wayland --virtual runs", os.path.exists(socket), world.log("kwin_wayland", 10) if not os.path.exists(socket) else "")
        if not os.path.exists(socket):
            return
        try:
            world.wait_for_name("org.freedesktop.ScreenSaver", timeout=20)
            answer = idle_time(world)
            check("wayland: KWin's kscreenlocker answers GetSessionIdleTime with NotSupported", "NotSupported" in str(answer),
                  str(answer))
        except Exception as error:  # a side check: the compositor's idle protocol is the subject
            check("wayland: KWin owns org.freedesktop.ScreenSaver", False, str(error)[:300])
        daemon = Daemon(world, bins, WAYLAND_DISPLAY=socket)
        line = daemon.idle_line()
        check("wayland: the daemon binds ext_idle_notifier_v1", "Wayland ext-idle-notify-v1" in line, line)
        started = time.time()
        id = daemon.cli("start", "focus", "minutes=25").strip()
        paused = daemon.wait_status(id, "paused", 45)
        waited = time.time() - started
        check("wayland: KWin says idle and the session pauses after 30 s", paused and waited >= 29, f"after {waited:.1f} s")
    finally:
        world.stop()
        session.remove()


def sway(root, bins):
    world = World("idle-sway")
    session = ChrootSession(root, world)
    try:
        nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        for path in (session.runtime, session.home):
            os.chown(session.host(path), 65534, 65534)
        config = os.path.join(session.dir, "sway.conf")
        with open(session.host(config), "w") as f:
            f.write("xwayland disable\noutput HEADLESS-1 resolution 1280x800\n")
        env = session.env(WLR_BACKENDS="headless", WLR_LIBINPUT_NO_DEVICES="1", WLR_RENDERER="pixman")
        session.start_bus()
        env["DBUS_SESSION_BUS_ADDRESS"] = session.address
        compositor = session.spawn("sway", [*nobody, "sway", "--config", config], env)
        run = session.host(session.runtime)
        deadline = time.time() + 20
        socket = None
        while time.time() < deadline and socket is None and compositor.poll() is None:
            socket = next((name for name in os.listdir(run) if name.startswith("wayland-") and not name.endswith(".lock")), None)
            time.sleep(0.2)
        check("sway: sway 1.10 headless runs", socket is not None, "" if socket else world.log("sway", 10))
        if socket is None:
            return
        daemon = Daemon(world, bins, WAYLAND_DISPLAY=os.path.join(run, socket))
        line = daemon.idle_line()
        check("sway: the daemon binds ext_idle_notifier_v1", "Wayland ext-idle-notify-v1" in line, line)
        started = time.time()
        id = daemon.cli("start", "focus", "minutes=25").strip()
        paused = daemon.wait_status(id, "paused", 45)
        waited = time.time() - started
        check("sway: sway says idle and the session pauses after 30 s", paused and waited >= 29, f"after {waited:.1f} s")
        back = "the user is back" in daemon.log()
        check("sway: no return before the user moves", not back)
        ipc = next(name for name in os.listdir(run) if name.startswith("sway-ipc."))
        moved = session.run([*nobody, "swaymsg", "-s", os.path.join(session.runtime, ipc), "seat", "seat0", "cursor", "move", "5", "5"],
                            env=env)
        deadline = time.time() + 10
        while time.time() < deadline and not back:
            back = "the user is back" in daemon.log()
            time.sleep(0.2)
        check("sway: a swaymsg pointer move is the user's return", back, moved.stdout.strip() + moved.stderr.strip())
    finally:
        world.stop()
        session.remove()


def main():
    wanted = sys.argv[1:] or ["x11", "wayland", "sway"]
    root = make_chroot("trixie")
    bins = binaries()
    for name in wanted:
        {"x11": x11, "wayland": wayland, "sway": sway}[name](root, bins)
    print(f"idle_sources: {sum(results)} passed, {len(results) - sum(results)} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
