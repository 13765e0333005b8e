#!/usr/bin/python3
"""Hotkeys pressed for real (issue 31): `liveactivity bind Super+Shift+F -- liveactivity toggle
focus` in a desktop of the Debian 13 chroot (scripts/desktops/chroot), the key pressed the way
a user's keyboard reaches that desktop, the focus session read back from our daemon, a second
press ending it, then `liveactivity unbind Super+Shift+F` and every file of the user's HOME
compared byte for byte with before the bind.

- `sway`: sway 1.10 headless as nobody, the user's config including `config.d/*`; the key from
  a Wayland virtual keyboard (`wtype`).
- `gnome`: GNOME Shell 48 headless with gsd-media-keys 48 of the same suite (which grabs
  custom keybindings through the shell); GSettings on the keyfile backend, as the other GNOME
  rows; the key from a Clutter virtual keyboard through the shell's `Eval`.
- `plasma`: kglobalacceld (Plasma 6.3, its libexec) on Xvfb; the key from `xdotool`.

`gnome` also checks the cards' app identity (issue 31, part 3): a card started with
`--app-id org.gnome.Pomodoro` is filed under that app (its name, id and settings policy), one
without under "Live Activities" (our desktop entry, installed before the session starts), and
the app's `show-banners = false` keeps its alert out of the banner queue while ours is queued.

What it took (each a failure met on the way): world directories with short names (libdbus
refuses socket paths over 99 bytes); /dev/shm bound into the chroot (sway hands a virtual
keyboard's keymap through it); sway's PATH set by us (ChrootWorld.spawn sets its own);
waiting for gsd-media-keys' first grabs, then for the shell to hold one more after `bind`
(`Main.shellDBusService._grabbedAccelerators`); XDG_MENU_PREFIX=plasma- for kglobalacceld
(else KService finds no launcher), and `bind` rebuilding KService's cache and registering with
SetPresent (else kglobalaccel holds the key but calls it inactive); cards off until the
byte-for-byte check (a card makes GNOME add the app to its list of notifying apps).

The CLI runs inside the chroot, as the desktop runs it: the host build with its Swift runtime
libraries copied next to it and a wrapper on the desktop's PATH. Our daemon runs on the host,
on the chroot's session bus (socket path through the chroot). Every process is started through
the World and ended by its pid.

- `gnome50`: the same on GNOME Shell 50 (Debian testing, the forky chroot).
- `plasma5`: kglobalaccel5 of Plasma 5.27 on this Debian 12 machine (no chroot), after the
  user's own change (KRunner on Alt+F3, through kglobalaccel as System Settings makes it).

Usage: scripts/desktops/hotkeys.py [sway] [gnome] [plasma] [gnome50] [plasma5]   (the first three by default)
HOTKEYS_KEEP=1 keeps the worlds' directories (logs); HOTKEYS_QT_LOGGING sets kglobalacceld's
QT_LOGGING_RULES (e.g. "kf.globalaccel*=true").
Also rows of scripts/desktop-matrix: hotkeys-sway, hotkeys-gnome48, hotkeys-gnome50, hotkeys-plasma6.3,
hotkeys-plasma5.27.
Prints one line per check and `hotkeys: N passed, N failed`; exits 1 when one failed.
"""
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gnome_chroot_world import ChrootWorld, is_mounted, make_chroot  # noqa: E402
from world import ServerFailed, World  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
BUS = "io.github.liveactivities.LiveActivities1"
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
KEYS = "Super+Shift+F"


def snapshot(top):
    """Every file under `top` with its bytes (directories as names): what "as before" compares."""
    result = {}
    for directory, dirs, files in os.walk(top):
        for name in dirs:
            result[os.path.relpath(os.path.join(directory, name), top) + "/"] = b""
        for name in files:
            path = os.path.join(directory, name)
            with open(path, "rb") as f:
                result[os.path.relpath(path, top)] = f.read()
    return result


def difference(before, after):
    added = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    changed = sorted(k for k in set(before) & set(after) if before[k] != after[k])
    lines = []
    for name in changed:  # what changed in a text file, line by line
        old = before[name].decode(errors="replace").splitlines()
        new = after[name].decode(errors="replace").splitlines()
        lines += [f"-{line}" for line in old if line not in new] + [f"+{line}" for line in new if line not in old]
    return "; ".join(f"{what}: {', '.join(names)}" for what, names in
                     (("added", added), ("removed", removed), ("changed", changed)) if names) + \
        (" (" + " | ".join(lines[:12]) + ")" if lines else "") or "identical"


class HotkeyRun:
    """One desktop's check: the CLI installed into the world, our daemon, the checks' verdicts."""

    def __init__(self, world, bins, inside=True):
        self.world, self.bins = world, bins
        self.checks = []
        self.cli_dir = self.install_cli() if inside else bins  # on the host the built CLI runs as it is
        self.daemon_env = None

    def add(self, name, ok, why=""):
        self.checks.append((name, ("yes" if ok else "NO", why)))
        print(f"  [{'ok' if ok else 'XX'}] {name}" + (f": {why}" if why else ""), flush=True)
        return ok

    def install_cli(self):
        """The host-built CLI and the Swift libraries it loads, in the world; a wrapper named
        `liveactivity` sets LD_LIBRARY_PATH (outer path of the directory returned)."""
        root = self.world.path("cli")
        lib = self.world.path("cli", "lib")
        binary = os.path.join(self.bins, "liveactivity")
        shutil.copy2(binary, os.path.join(root, "liveactivity.bin"))
        listed = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
        for line in listed.splitlines():
            parts = line.split("=>")
            if len(parts) == 2 and parts[1].strip().startswith("/opt/"):
                source = parts[1].split()[0]
                target = os.path.join(lib, os.path.basename(source))
                try:
                    os.link(source, target)
                except OSError:
                    shutil.copy2(source, target)
        wrapper = os.path.join(root, "bin", "liveactivity")
        os.makedirs(os.path.dirname(wrapper), exist_ok=True)
        with open(wrapper, "w") as f:
            f.write(f"#!/bin/sh\nLD_LIBRARY_PATH={self.world.inner(lib)} exec {self.world.inner(root)}/liveactivity.bin \"$@\"\n")
        os.chmod(wrapper, 0o755)
        for path in (root, lib, os.path.dirname(wrapper)):
            os.chmod(path, 0o755)
        return os.path.dirname(wrapper)

    def start_daemon(self, cards=False, **extra):
        """Our daemon on the host, on the chroot's session bus; tray and quiet off; cards and the
        MPRIS player as asked (off while HOME is compared: GNOME adds an app that notifies, or on
        50 plays media, to its own list of apps in the settings, whatever `bind` did)."""
        home = self.world.path("daemon")
        with open(self.world.file("daemon", "config", "liveactivities", "liveactivityd.conf"), "w") as f:
            on = "on" if cards else "off"
            f.write(f"quiet-desktop = off\ncards = {on}\nmpris = {on}\ntray = off\nmin-notify-interval = 0.1\n")
        self.daemon_env = self.world.env(HOME=home, XDG_STATE_HOME=os.path.join(home, "state"),
                                         XDG_CONFIG_HOME=os.path.join(home, "config"),
                                         XDG_DATA_HOME=os.path.join(home, "data"),
                                         LIVEACTIVITIES_KINDS_DIR=os.path.join(REPO, "data", "kinds"), **extra)
        process = subprocess.Popen([os.path.join(self.bins, "liveactivityd")], env=self.daemon_env,
                                   stdout=open(self.world.file("logs", "liveactivityd.log"), "ab"),
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        self.world.processes.append(("liveactivityd", process, self.world.file("logs", "liveactivityd.log")))
        self.world.wait_for_name(BUS, process=process, process_name="liveactivityd")

    def focus(self):
        """The status of the newest focus activity as the daemon lists it, or None."""
        listed = subprocess.run([os.path.join(self.bins, "liveactivity"), "list"], env=self.daemon_env,
                                capture_output=True, text=True, timeout=30).stdout
        rows = [line.split("\t") for line in listed.splitlines() if line.count("\t") >= 2]
        statuses = [row[2] for row in rows if row[1] == "focus"]
        live = [s for s in statuses if s in ("active", "paused", "pending")]
        return live[0] if live else (statuses[0] if statuses else None)

    def restart_daemon(self, cards):
        """Ends our daemon (by its pid) and starts it again with cards on or off."""
        for name, process, _ in self.world.processes:
            if name == "liveactivityd" and process.poll() is None:
                process.terminate()
                process.wait(timeout=10)
        deadline = time.time() + 10
        while time.time() < deadline and self.world.has_owner(BUS):
            time.sleep(0.1)
        self.start_daemon(cards=cards)

    def cli(self, *args):
        """The host's CLI against our daemon: (exit status, output)."""
        result = subprocess.run([os.path.join(self.bins, "liveactivity"), *args], env=self.daemon_env,
                                capture_output=True, text=True, timeout=30)
        return result.returncode, (result.stdout + result.stderr).strip()

    def wait_focus(self, wanted, timeout=15):
        deadline = time.time() + timeout
        seen = None
        while time.time() < deadline:
            seen = self.focus()
            if seen in wanted:
                return True, seen
            time.sleep(0.2)
        return False, seen

    def press_twice(self, press, desktop):
        """Presses the key, reads a started session back, presses again, reads it ended."""
        how = press()
        started, seen = self.wait_focus({"active"})
        self.add(f"{desktop}: {KEYS} starts a focus session", started, f"{how}; liveactivity list: focus {seen}")
        if not started:
            return False
        how = press()
        ended, seen = self.wait_focus({"ended", "dismissed", None})
        return self.add(f"{desktop}: a second press ends it", ended, f"{how}; liveactivity list: focus {seen}")


def ensure_shm(root):
    """/dev/shm inside the chroot: its /dev is a plain bind of the host's, which leaves out the
    tmpfs mounted on /dev/shm, and sway (as nobody) cannot hand a virtual keyboard's keymap to
    clients without it. Bound only when missing and never unmounted (other rows share the chroot)."""
    target = os.path.join(root, "dev", "shm")
    if not is_mounted(target):
        subprocess.run(["mount", "--bind", "/dev/shm", target], check=True, timeout=30)


def spawn_inside(world, name, argv, env, user=None):
    """A long-running process inside the chroot with exactly `env` (ChrootWorld.spawn sets its
    own PATH; the desktop's PATH must lead to our CLI), ended by the World."""
    inside = {k: world.inner_text(v) for k, v in env.items()}
    command = ["chroot", world.root, "env", "-i", *[f"{k}={v}" for k, v in inside.items()], *(user or []),
               *[world.inner_text(a) for a in argv]]
    return World.spawn(world, name, command, env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})


def settle(path, quiet=2.0, timeout=20):
    """Waits until `path` has not changed for `quiet` seconds: kglobalaccel rewrites its
    kglobalshortcutsrc in its own form after it starts (Plasma 5.27 migrates old names), and
    the user's settings "before the bind" are what it leaves."""
    def state():
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError:
            return None
    deadline = time.time() + timeout
    last, since = state(), time.time()
    while time.time() < deadline:
        time.sleep(0.25)
        now = state()
        if now != last:
            last, since = now, time.time()
        elif time.time() - since >= quiet:
            return


def run_inside(world, argv, env, user=None, timeout=60):
    """A short command inside the chroot (as nobody when `user` is NOBODY), with `env` (outer
    paths rewritten to inner ones)."""
    inside = {k: world.inner_text(v) for k, v in env.items()}
    return subprocess.run(["chroot", world.root, "env", "-i", *[f"{k}={v}" for k, v in inside.items()], *(user or []),
                           *[world.inner_text(a) for a in argv]], capture_output=True, text=True, timeout=timeout)


class SwayHotkeys:
    """sway 1.10 headless as nobody; the binding in ~/.config/sway/config.d/liveactivities.conf."""
    name = "hotkeys-sway"
    packages = []

    def make_world(self, keep):
        return ChrootWorld("hk-sway", make_chroot("trixie"), keep=keep)

    def play_panel(self, world, bins, repo, shots):
        run = HotkeyRun(world, bins)
        ensure_shm(world.root)
        home = world.home
        config = world.file("home", ".config", "sway", "config")
        with open(config, "w") as f:  # the user's own config: includes config.d, one binding of theirs
            f.write("xwayland disable\noutput HEADLESS-1 resolution 1280x800\n"
                    "bindsym Mod4+Return exec foot\ninclude ~/.config/sway/config.d/*\n")
        for directory, dirs, files in os.walk(world.dir):
            for name in [directory] + [os.path.join(directory, n) for n in files if not n.endswith(".socket")]:
                if name.startswith(home) or name == world.runtime or name.startswith(world.runtime):
                    os.chown(name, 65534, 65534)
        os.chown(home, 65534, 65534)
        os.chown(world.runtime, 65534, 65534)
        run.start_daemon()
        env = world.env(WLR_BACKENDS="headless", WLR_LIBINPUT_NO_DEVICES="1", WLR_RENDERER="pixman",
                        PATH=f"{run.cli_dir}:/usr/local/bin:/usr/bin:/bin")
        env.pop("DISPLAY", None)
        compositor = spawn_inside(world, "sway", ["sway"], env, NOBODY)
        deadline = time.time() + 20
        socket = ipc = None
        while time.time() < deadline and (socket is None or ipc is None) and compositor.poll() is None:
            names = os.listdir(world.runtime)
            socket = next((n for n in names if n.startswith("wayland-") and not n.endswith(".lock")), None)
            ipc = next((n for n in names if n.startswith("sway-ipc.")), None)
            time.sleep(0.2)
        version = run_inside(world, ["sway", "--version"], env).stdout.strip()
        if not run.add("sway runs headless", socket is not None and ipc is not None, version or world.log("sway", 10)):
            return run.checks
        env.update(WAYLAND_DISPLAY=socket, SWAYSOCK=os.path.join(world.runtime, ipc))
        before = snapshot(home)
        bound = run_inside(world, ["liveactivity", "bind", KEYS, "--", "liveactivity", "toggle", "focus"], env, NOBODY)
        run.add("sway: liveactivity bind", bound.returncode == 0 and "sway reloaded its config" in bound.stdout,
                (bound.stdout + bound.stderr).strip().replace("\n", " | "))

        def press():
            result = run_inside(world, ["wtype", "-M", "logo", "-M", "shift", "-k", "f", "-m", "shift", "-m", "logo"],
                                env, NOBODY)
            return f"wtype -M logo -M shift -k f (exit {result.returncode}{' ' + result.stderr.strip() if result.stderr else ''})"

        run.press_twice(press, "sway")
        unbound = run_inside(world, ["liveactivity", "unbind", KEYS], env, NOBODY)
        run.add("sway: liveactivity unbind", unbound.returncode == 0, (unbound.stdout + unbound.stderr).strip().replace("\n", " | "))
        after = snapshot(home)
        run.add("sway: HOME byte for byte as before the bind", after == before, difference(before, after))
        return run.checks


USER_KEYBINDING = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/custom0/"

#: Super+Shift+F through a Clutter virtual keyboard, as a keyboard's events reach mutter.
PRESS_JS = """(() => {
    const Clutter = imports.gi.Clutter, GLib = imports.gi.GLib;
    if (!global._laHotkeyKeyboard)
        global._laHotkeyKeyboard = Clutter.get_default_backend().get_default_seat()
            .create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE);
    const keyboard = global._laHotkeyKeyboard;
    const send = (key, state) => keyboard.notify_keyval(GLib.get_monotonic_time(), key, state);
    for (const key of [Clutter.KEY_Super_L, Clutter.KEY_Shift_L, Clutter.KEY_f]) send(key, Clutter.KeyState.PRESSED);
    for (const key of [Clutter.KEY_f, Clutter.KEY_Shift_L, Clutter.KEY_Super_L]) send(key, Clutter.KeyState.RELEASED);
    return 'pressed';
})()"""


#: Every notification source the shell holds: its title, its app (from the desktop-entry hint),
#: its settings policy id, its notifications' titles, and what the banner queue holds.
SOURCES_JS = """(() => JSON.stringify({
    sources: Main.messageTray.getSources().map(s => ({
        title: s.title, app: s.app ? s.app.get_id() : null,
        policy: s.policy && s.policy.id ? s.policy.id : null,
        showBanners: s.policy ? s.policy.showBanners : null,
        notifications: s.notifications.map(n => n.title) })),
    queued: Main.messageTray._notificationQueue.map(n => n.title),
    banner: Main.messageTray._notification ? Main.messageTray._notification.title : null,
    ours: (imports.gi.Shell.AppSystem.get_default().lookup_app('io.github.liveactivities.desktop') || {get_name: () => null}).get_name(),
    dirs: imports.gi.GLib.get_user_data_dir() }))()"""

#: An app whose desktop entry the chroot has: the timer app gnome-shell-pomodoro (trixie), else Settings.
APPS = ["org.gnome.Pomodoro", "org.gnome.Settings"]


def install_desktop_entry(world, cli_dir):
    """Our desktop entry where `make install PREFIX=~/.local` puts it, before the session starts
    (its Exec the CLI's path: GLib drops an entry whose program it cannot find)."""
    with open(os.path.join(REPO, "data", "applications", "io.github.liveactivities.desktop.in")) as f:
        entry = f.read().replace("@BINDIR@", world.inner(cli_dir))
    with open(world.file("home", ".local", "share", "applications", "io.github.liveactivities.desktop"), "w") as f:
        f.write(entry)


def check_app_identity(shell, world, run, env):
    """Issue 31, part 3: a card started with --app-id is filed under that app (name, id,
    settings policy), one without under ours; the app's `show-banners = false` keeps its alert
    out of the banner queue while ours is queued."""
    APP = next(app for app in APPS if os.path.exists(os.path.join(world.root, "usr/share/applications", app + ".desktop")))
    # GNOME's per-app settings live under the app id, lower case, dots as dashes.
    settings = f"/org/gnome/desktop/notifications/application/{APP.lower().replace('.', '-')}/"
    run_inside(world, ["gsettings", "set", f"org.gnome.desktop.notifications.application:{settings}", "show-banners", "false"], env)
    theirs = run.cli("start", "generic", "title=Theirs", "--app-id", APP)[1]
    ours = run.cli("start", "generic", "title=Ours")[1]
    bad = run.cli("start", "generic", "title=Bad", "--app-id", "org/evil")
    run.add("app-id: a bad one is refused", bad[0] == 1 and "app-id" in bad[1], bad[1])

    def sources(wanted):
        deadline = time.time() + 15
        seen = {}
        while time.time() < deadline:
            seen = shell.eval(world, SOURCES_JS)
            titles = [t for s in seen["sources"] for t in s["notifications"]]
            if all(w in titles for w in wanted):
                break
            time.sleep(0.3)
        return seen

    seen = sources(["Theirs", "Ours"])
    by_card = {t: s for s in seen["sources"] for t in s["notifications"]}
    name = run_inside(world, ["gjs", "-c", f"print(imports.gi.Gio.DesktopAppInfo.new('{APP}.desktop').get_name())"], env).stdout.strip()
    source = by_card.get("Theirs") or {}
    run.add("app-id: GNOME files the card under the app", source.get("app") == f"{APP}.desktop" and source.get("title") == name,
            f"source {source} (the app's name: {name!r})")
    source = by_card.get("Ours") or {}
    run.add("app-id: without one, under Live Activities (our desktop entry)",
            source.get("app") == "io.github.liveactivities.desktop" and source.get("title") == "Live Activities",
            f"source {source}; the shell's app for io.github.liveactivities.desktop: {seen.get('ours')} (data dir {seen.get('dirs')})")
    # The app's own setting: banners off. An alert on each card; once both cards carry the alert
    # (the shell took both Notify calls), ours is queued or showing and theirs is not.
    shell.quiet_banners(world)
    run.cli("update", theirs.split()[0], "--alert-title", "Theirs alert")
    run.cli("update", ours.split()[0], "--alert-title", "Ours alert")
    seen = sources(["Theirs alert", "Ours alert"])
    shown = seen["queued"] + ([seen["banner"]] if seen["banner"] else [])
    policy = next((s for s in seen["sources"] if "Theirs alert" in s["notifications"]), {})
    run.add("app-id: the app's show-banners=false is obeyed (ours still pops up)",
            "Ours alert" in shown and "Theirs alert" not in shown and policy.get("showBanners") is False,
            f"banner queue {shown}; the app's policy {policy.get('policy')} showBanners {policy.get('showBanners')}")


def gnome_row(name="hotkeys-gnome48", suite="trixie"):
    """A GNOME Shell row: 48 in trixie, 50 in forky (its classes come from the GNOME modules,
    imported only here)."""
    from panel_gnome_chroot import ChrootGnomeShell
    from servers_wayland import GnomeShell

    class GnomeHotkeys(ChrootGnomeShell, GnomeShell):
        """GNOME Shell and gsd-media-keys of one suite (48 in trixie, 50 in forky); the binding in the
        media-keys custom keybindings (keyfile backend)."""
        def __init__(self):
            self.name, self.suite = name, suite

        def make_world(self, keep):  # a short directory name: libdbus takes socket paths of at most 99 bytes
            return ChrootWorld("hk-gnome", make_chroot(self.suite), keep=keep)

        def play_panel(self, world, bins, repo, shots):
            run = HotkeyRun(world, bins)
            install_desktop_entry(world, run.cli_dir)
            self.start(world)
            run.add("GNOME Shell runs", True, "ShellVersion " + self.shell_version(world))
            run.start_daemon()  # cards off: a card would make GNOME write its list of notifying apps
            env = dict(self.env, PATH=f"{run.cli_dir}:/usr/local/bin:/usr/bin:/bin")
            # The user's own custom shortcut, set as Settings would (through GSettings).
            user = f"org.gnome.settings-daemon.plugins.media-keys.custom-keybinding:{USER_KEYBINDING}"
            for arguments in (["org.gnome.settings-daemon.plugins.media-keys", "custom-keybindings", f"['{USER_KEYBINDING}']"],
                              [user, "name", "Terminal"], [user, "command", "true"], [user, "binding", "<Super>t"]):
                run_inside(world, ["gsettings", "set", *arguments], env)
            keys = spawn_inside(world, "gsd-media-keys", ["/usr/libexec/gsd-media-keys"], env)
            deadline = time.time() + 30
            while time.time() < deadline and not world.has_owner("org.gnome.SettingsDaemon.MediaKeys") and keys.poll() is None:
                time.sleep(0.2)
            if not run.add("gsd-media-keys runs", world.has_owner("org.gnome.SettingsDaemon.MediaKeys"),
                           world.log("gsd-media-keys", 5).replace("\n", " | ")):
                return run.checks
            config = os.path.join(world.home, ".config")
            grabs = "(() => Main.shellDBusService._grabbedAccelerators.size)()"
            grabbed, deadline = -1, time.time() + 20  # gsd-media-keys' own keys grabbed: the user's session is up
            while time.time() < deadline and (grabbed <= 0 or grabbed != self.eval(world, grabs)):
                grabbed = self.eval(world, grabs)
                time.sleep(1)
            before = snapshot(config)
            bound = run_inside(world, ["liveactivity", "bind", KEYS, "--", "liveactivity", "toggle", "focus"], env)
            listed = run_inside(world, ["gsettings", "get", "org.gnome.settings-daemon.plugins.media-keys",
                                        "custom-keybindings"], env).stdout.strip()
            run.add("GNOME: liveactivity bind", bound.returncode == 0 and "liveactivities-super-shift-f" in listed,
                    (bound.stdout + bound.stderr).strip().replace("\n", " | ") + f"; custom-keybindings {listed}")
            # gsd-media-keys reads the keyfile on its change and asks the shell to grab the key
            # (GrabAccelerators): wait for the shell to hold one grab more.
            deadline = time.time() + 20
            while time.time() < deadline and self.eval(world, grabs) <= grabbed:
                time.sleep(0.2)
            run.add("GNOME: gsd-media-keys had the shell grab the key", self.eval(world, grabs) > grabbed,
                    f"the shell's grabbed accelerators: {grabbed} before, {self.eval(world, grabs)} after")

            def press():
                return "Clutter virtual keyboard via Eval: " + str(self.eval_raw(world, PRESS_JS)[1])

            run.press_twice(press, "GNOME")
            unbound = run_inside(world, ["liveactivity", "unbind", KEYS], env)
            run.add("GNOME: liveactivity unbind", unbound.returncode == 0, (unbound.stdout + unbound.stderr).strip())
            after = snapshot(config)
            run.add("GNOME: ~/.config (the GSettings keyfile) byte for byte as before the bind", after == before,
                    difference(before, after))
            run.restart_daemon(cards=True)
            check_app_identity(self, world, run, env)
            return run.checks

    return GnomeHotkeys()


KGLOBALACCELD = "/usr/lib/x86_64-linux-gnu/libexec/kglobalacceld"
# As a Plasma session sets them: XDG_MENU_PREFIX names the menu KService indexes applications by
# (without it kglobalacceld finds no launcher in ~/.local/share/applications).
KDE = {"XDG_CURRENT_DESKTOP": "KDE", "KDE_FULL_SESSION": "true", "KDE_SESSION_VERSION": "6", "QT_QPA_PLATFORM": "xcb",
       "XDG_MENU_PREFIX": "plasma-", "QT_LOGGING_RULES": os.environ.get("HOTKEYS_QT_LOGGING", "")}


class PlasmaHotkeys:
    """kglobalacceld of Plasma 6.3 (trixie) on Xvfb; the binding a hidden launcher in
    ~/.local/share/applications registered with it; the key from xdotool."""
    name = "hotkeys-plasma6.3"
    packages = []

    def make_world(self, keep):
        return ChrootWorld("hk-plasma", make_chroot("trixie"), keep=keep)

    def play_panel(self, world, bins, repo, shots):
        run = HotkeyRun(world, bins)
        world.start_xvfb("1280x800")
        run.start_daemon()
        env = world.env(**KDE, PATH=f"{run.cli_dir}:/usr/local/bin:/usr/bin:/bin")
        with open(world.file("home", ".config", "kglobalshortcutsrc"), "w") as f:  # a key the user changed
            f.write("[services][org.kde.krunner.desktop]\n_launch=Alt+F3\n")
        accel = spawn_inside(world, "kglobalacceld", [KGLOBALACCELD], env)
        world.wait_for_name("org.kde.kglobalaccel", timeout=30, process=accel, process_name="kglobalacceld")
        run.add("kglobalacceld runs on Xvfb", True, f"DISPLAY {world.display}")
        settle(os.path.join(world.home, ".config", "kglobalshortcutsrc"))
        watched = [os.path.join(world.home, ".config"), os.path.join(world.home, ".local", "share")]
        before = [snapshot(path) for path in watched]
        bound = run_inside(world, ["liveactivity", "bind", KEYS, "--", "liveactivity", "toggle", "focus"], env)
        run.add("Plasma: liveactivity bind", bound.returncode == 0 and "registered with kglobalaccel" in bound.stdout,
                (bound.stdout + bound.stderr).strip().replace("\n", " | "))
        time.sleep(1)

        def press():
            result = run_inside(world, ["xdotool", "key", "super+shift+f"], env)
            return f"xdotool key super+shift+f (exit {result.returncode}{' ' + result.stderr.strip() if result.stderr else ''})"

        run.press_twice(press, "Plasma")
        unbound = run_inside(world, ["liveactivity", "unbind", KEYS], env)
        run.add("Plasma: liveactivity unbind", unbound.returncode == 0, (unbound.stdout + unbound.stderr).strip())
        time.sleep(1.5)  # kglobalacceld writes its file shortly after a change
        after = [snapshot(path) for path in watched]
        run.add("Plasma: ~/.config and ~/.local/share byte for byte as before the bind", after == before,
                "; ".join(difference(b, a) for b, a in zip(before, after)))
        return run.checks


class Plasma527Hotkeys:
    """kglobalaccel5 of Plasma 5.27 (this Debian 12 machine, no chroot) on Xvfb; the same
    launcher, registered through the same D-Bus API; the key from xdotool."""
    name = "hotkeys-plasma5.27"
    packages = ["plasma-workspace", "libkf5globalaccel-bin", "xdotool", "xvfb"]

    def make_world(self, keep):
        return World("hk-plasma5", keep=keep)

    def play_panel(self, world, bins, repo, shots):
        run = HotkeyRun(world, bins, inside=False)
        world.start_xvfb("1280x800")
        run.start_daemon()
        # Debian 12 names Plasma 5's menu kf5-applications.menu (XDG_MENU_PREFIX=kf5-).
        env = world.env(XDG_CURRENT_DESKTOP="KDE", KDE_FULL_SESSION="true", KDE_SESSION_VERSION="5",
                        QT_QPA_PLATFORM="xcb", XDG_MENU_PREFIX="kf5-", PATH=f"{bins}:/usr/local/bin:/usr/bin:/bin",
                        QT_LOGGING_RULES=os.environ.get("HOTKEYS_QT_LOGGING", ""))
        accel = world.spawn("kglobalaccel5", ["kglobalaccel5"], env=env)
        world.wait_for_name("org.kde.kglobalaccel", timeout=30, process=accel, process_name="kglobalaccel5")
        run.add("kglobalaccel5 runs on Xvfb", True, f"DISPLAY {world.display}")
        # The user's own change first, as System Settings makes it: KRunner on Alt+F3. kglobalaccel5
        # then writes kglobalshortcutsrc in its own form (every component it knows).
        import dbus
        bus = dbus.bus.BusConnection(world.session_address)
        action = dbus.Array(["org.kde.krunner.desktop", "_launch", "KRunner", "KRunner"], signature="s")
        keys = dbus.Array([dbus.Struct((dbus.Array([0x0800_0000 | 0x0100_0032, 0, 0, 0], signature="i"),))], signature="(ai)")
        bus.call_blocking("org.kde.kglobalaccel", "/kglobalaccel", "org.kde.KGlobalAccel", "setForeignShortcutKeys",
                          "asa(ai)", [action, keys])
        settle(os.path.join(world.home, ".config", "kglobalshortcutsrc"))
        watched = [os.path.join(world.home, ".config"), os.path.join(world.home, ".local", "share")]
        before = [snapshot(path) for path in watched]
        run.add("Plasma 5.27: the user's own shortcut is in kglobalshortcutsrc", b"Alt+F3" in before[0].get("kglobalshortcutsrc", b""),
                before[0].get("kglobalshortcutsrc", b"(none)").decode(errors="replace").split("\n\n")[0].replace("\n", " | "))
        cli = os.path.join(bins, "liveactivity")
        bound = subprocess.run([cli, "bind", KEYS, "--", "liveactivity", "toggle", "focus"], env=env,
                               capture_output=True, text=True, timeout=60)
        run.add("Plasma 5.27: liveactivity bind", bound.returncode == 0 and "registered with kglobalaccel" in bound.stdout,
                (bound.stdout + bound.stderr).strip().replace("\n", " | "))

        def press():
            result = subprocess.run(["xdotool", "key", "super+shift+f"], env=env, capture_output=True, text=True, timeout=30)
            return f"xdotool key super+shift+f (exit {result.returncode}{' ' + result.stderr.strip() if result.stderr else ''})"

        run.press_twice(press, "Plasma 5.27")
        unbound = subprocess.run([cli, "unbind", KEYS], env=env, capture_output=True, text=True, timeout=60)
        run.add("Plasma 5.27: liveactivity unbind", unbound.returncode == 0, (unbound.stdout + unbound.stderr).strip())
        time.sleep(1.5)  # kglobalaccel writes its file shortly after a change
        after = [snapshot(path) for path in watched]
        run.add("Plasma 5.27: ~/.config and ~/.local/share byte for byte as before the bind", after == before,
                "; ".join(difference(b, a) for b, a in zip(before, after)))
        return run.checks


def rows():
    """The matrix rows of this module."""
    return [SwayHotkeys(), gnome_row(), gnome_row("hotkeys-gnome50", "forky"), PlasmaHotkeys(), Plasma527Hotkeys()]


def binaries():
    env = dict(os.environ, PATH="/opt/swift/usr/bin:" + os.environ.get("PATH", ""))
    for product in ("liveactivityd", "liveactivity"):
        subprocess.run(["swift", "build", "--product", product], cwd=REPO, env=env, check=True, capture_output=True)
    return subprocess.run(["swift", "build", "--show-bin-path"], cwd=REPO, env=env, capture_output=True, text=True,
                          check=True).stdout.strip()


def main(argv):
    known = {"sway": "hotkeys-sway", "gnome": "hotkeys-gnome48", "plasma": "hotkeys-plasma6.3", "gnome50": "hotkeys-gnome50",
             "plasma5": "hotkeys-plasma5.27"}
    wanted = argv or ["sway", "gnome", "plasma"]
    by_name = {row.name: row for row in rows()}
    bins = binaries()
    results = []
    for name in wanted:
        row = by_name.get(known.get(name, name))
        if row is None:
            print(f"unknown desktop {name!r}; known: {' '.join(known)}", file=sys.stderr)
            return 2
        begun = time.time()
        print(f"== {row.name}", flush=True)
        world = row.make_world(keep=bool(os.environ.get("HOTKEYS_KEEP")))
        world.bins = bins
        try:
            world.start_bus("session")
            checks = row.play_panel(world, bins, REPO, None)
            results += [verdict == "yes" for _, (verdict, _) in checks]
        except ServerFailed as error:
            print(f"  [XX] {row.name}: {error}")
            results.append(False)
        finally:
            world.stop()
        print(f"  ({time.time() - begun:.0f} s)", flush=True)
    print(f"hotkeys: {sum(results)} passed, {len(results) - sum(results)} failed")
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
