"""The Wayland servers: mako (in sway headless, as nobody) and GNOME Shell (headless)."""
import json
import os
import shutil
import subprocess
import time

from scenario import check, na, no, yes
from server_base import Server
from world import ServerFailed

NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


class Mako(Server):
    """mako inside sway headless: sway refuses root, so both run as nobody."""
    name = "mako"
    packages = ["mako-notifier", "sway", "grim"]
    draws_value = True

    def start(self, world):
        self.run_dir = world.path("nobody-run")
        home = world.path("nobody-home")
        for path in (self.run_dir, home):
            os.chown(path, 65534, 65534)
            os.chmod(path, 0o700)
        config = world.file("sway", "config")
        with open(config, "w") as f:
            f.write("xwayland disable\noutput HEADLESS-1 resolution 1280x800 bg #1d2330 solid_color\n")
        os.chmod(os.path.dirname(config), 0o755)
        os.chmod(config, 0o644)
        self.env = world.env(HOME=home, XDG_RUNTIME_DIR=self.run_dir, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                             XDG_DATA_HOME=None, WLR_BACKENDS="headless", WLR_LIBINPUT_NO_DEVICES="1",
                             WLR_RENDERER="pixman")
        for key in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
            self.env.pop(key, None)
        self.sway = world.spawn("sway", NOBODY + ["sway", "--config", config], env=self.env)
        deadline = time.time() + 15
        socket = None
        while time.time() < deadline and socket is None:
            sockets = [n for n in os.listdir(self.run_dir) if n.startswith("wayland-") and not n.endswith(".lock")]
            socket = sockets[0] if sockets else None
            if self.sway.poll() is not None:
                break
            time.sleep(0.1)
        if socket is None:
            raise ServerFailed("sway headless did not start:\n" + world.log("sway"))
        self.env["WAYLAND_DISPLAY"] = socket
        mako_config = world.file("mako", "config")
        with open(mako_config, "w") as f:
            f.write("font=DejaVu Sans 10\nwidth=420\nheight=160\nmargin=10\nmax-visible=5\n"
                    "background-color=#285577\nprogress-color=over #5588AA\ndefault-timeout=0\n")
        os.chmod(os.path.dirname(mako_config), 0o755)
        os.chmod(mako_config, 0o644)
        self.mako = world.spawn("mako", NOBODY + ["mako", "--config", mako_config], env=self.env)
        world.wait_for_name("org.freedesktop.Notifications", process=self.mako, process_name="mako")

    def ctl(self, world, *args):
        result = subprocess.run(["makoctl", *args], env=world.env(), capture_output=True, text=True, timeout=15)
        if result.returncode != 0:
            raise ServerFailed(f"makoctl {' '.join(args)}: {result.stderr.strip()}")
        return result.stdout

    def cards(self, world):
        data = json.loads(self.ctl(world, "list"))
        rows = data.get("data", [[]])[0]
        return [{"id": r["id"]["data"], "app": r["app-name"]["data"], "summary": r["summary"]["data"],
                 "body": r["body"]["data"], "urgency": r.get("urgency", {}).get("data"),
                 "actions": r.get("actions", {}).get("data")} for r in rows]

    def on_screen(self, world):
        return len(self.cards(world))

    def press(self, world, notification_id, key, label):
        self.ctl(world, "invoke", "-n", str(notification_id), key)
        return True, f"makoctl invoke -n {notification_id} {key}"

    def screenshot(self, world, path):
        shot = os.path.join(self.run_dir, "shot.png")
        subprocess.run(NOBODY + ["grim", shot], env=self.env, check=True, timeout=30)
        shutil.copyfile(shot, path)

    def after_end(self, run):
        """With the scenario's cards closed: a 16:8 fast's card, its bar and its segment text."""
        import segments_mako
        segments_mako.play(run)


UNSAFE_EXTENSION = "la-unsafe-mode@liveactivities.invalid"
EXTENSION_JS = """// Test-only: lets org.gnome.Shell.Eval read the message tray (LiveActivities desktop matrix).
function init() {}
function enable() { global.context.unsafe_mode = true; }
function disable() { global.context.unsafe_mode = false; }
"""
#: Reads GNOME Shell's message tray: the banner and every notification with its urgency.
TRAY_JS = """
(() => {
  const tray = imports.ui.main.messageTray;
  const describe = n => ({ title: n.title, body: n.bannerBodyText, urgency: n.urgency,
                           acknowledged: n.acknowledged, source: n.source ? n.source.title : null,
                           actions: (n.actions || []).map(a => a.label) });
  return JSON.stringify({
    state: tray._notificationState,
    banner: tray._notification ? describe(tray._notification) : null,
    notifications: tray.getSources().flatMap(s => s.notifications.map(describe)),
  });
})()
"""


class GnomeShell(Server):
    """GNOME Shell 43 headless on Wayland, with a private system bus and the notification helper."""
    name = "gnome-shell"
    packages = ["gnome-shell", "gjs"]
    #: more extensions to enable (uuids), and data dirs to search first (for installed ones)
    extensions = []
    data_dirs = None
    #: the test-only extension that turns on unsafe mode, as this shell generation loads it
    unsafe_extension_js = EXTENSION_JS
    unsafe_shell_versions = ["43"]
    #: the notification service (a gjs program; an ES module since 45: `gjs -m`)
    notifications_helper = ["gjs", "/usr/share/gnome-shell/org.gnome.Shell.Notifications"]
    #: whether the shell builds its lock screen (a GDM stand-in on the system bus; issue 26)
    lockable = False
    #: more GSettings keyfile groups for the shell and its clients (`[path]\nkey=value\n`)
    extra_settings = ""

    def start(self, world):
        world.start_bus("system")
        if self.lockable:
            self.start_gdm_standin(world)
        env = world.env(GSETTINGS_BACKEND="keyfile", XDG_SESSION_TYPE="wayland", XDG_CURRENT_DESKTOP="GNOME",
                        XDG_DATA_DIRS=self.data_dirs)
        settings = world.file("home", ".config", "glib-2.0", "settings", "keyfile")
        enabled = ", ".join(f"'{uuid}'" for uuid in [UNSAFE_EXTENSION, *self.extensions])
        with open(settings, "w") as f:
            f.write(f"[org/gnome/shell]\nenabled-extensions=[{enabled}]\n"
                    "disable-user-extensions=false\nwelcome-dialog-last-shown-version='999'\n"
                    # no blank screen and no lock of its own while a long row runs without input
                    "[org/gnome/desktop/session]\nidle-delay=uint32 0\n" + self.extra_settings)
        extension = world.path("home", ".local", "share", "gnome-shell", "extensions", UNSAFE_EXTENSION)
        with open(os.path.join(extension, "metadata.json"), "w") as f:
            json.dump({"uuid": UNSAFE_EXTENSION, "name": "LiveActivities test: unsafe mode",
                       "description": "Test only: turns on unsafe mode so org.gnome.Shell.Eval works.",
                       "shell-version": self.unsafe_shell_versions,
                       # Eval must go on answering while the screen is locked (the lock screen checks)
                       "session-modes": ["user", "unlock-dialog"]}, f)
        with open(os.path.join(extension, "extension.js"), "w") as f:
            f.write(self.unsafe_extension_js)
        self.env = env
        self.shell = world.spawn("gnome-shell", ["gnome-shell", "--headless", "--virtual-monitor", "1280x800",
                                                 "--wayland", "--no-x11"], env=env)
        world.wait_for_name("org.gnome.Shell", timeout=40, process=self.shell, process_name="gnome-shell")
        self.helper = world.spawn("gnome-shell-notifications",
                                  self.notifications_helper, env=env)
        world.wait_for_name("org.freedesktop.Notifications", timeout=20, process=self.helper,
                            process_name="gnome-shell-notifications")
        self.world = world
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                if self.eval_raw(world, "1")[0]:
                    self.prepare(world)
                    return
            except Exception:  # the shell owns its name before it exports its objects
                pass
            time.sleep(0.3)
        raise ServerFailed("org.gnome.Shell.Eval stays refused: the unsafe-mode extension did not load\n"
                           + world.log("gnome-shell"))

    def start_gdm_standin(self, world):
        """GDM's Version on the private system bus and the systemd seats directory: what
        GNOME Shell's `canLock()` asks before it makes `Main.screenShield` (gdm_standin.py)."""
        root = getattr(world, "root", "")  # a chroot's shell looks for the seats inside it
        os.makedirs(os.path.join(root or "/", "run", "systemd", "seats"), exist_ok=True)
        from world import World
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gdm_standin.py")
        # On the host (python3-dbus), even for a chroot's shell: the bus socket's outer path reaches it.
        standin = World.spawn(world, "gdm-standin", ["/usr/bin/python3", script, world.system_address, "48.0"],
                              env=world.env())
        deadline = time.time() + 10
        while not world.has_owner("org.gnome.DisplayManager", address=world.system_address):
            if standin.poll() is not None or time.time() > deadline:
                raise ServerFailed("the GDM stand-in did not take org.gnome.DisplayManager\n" + world.log("gdm-standin"))
            time.sleep(0.1)

    def bus(self, world):
        import dbus
        if not hasattr(self, "_bus"):
            self._bus = dbus.bus.BusConnection(world.session_address)
        return self._bus

    def eval_raw(self, world, script):
        ok, result = self.bus(world).call_blocking("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell", "Eval",
                                                   "s", [script], timeout=20)
        return bool(ok), str(result)

    def eval(self, world, script):
        ok, result = self.eval_raw(world, script)
        if not ok:
            raise ServerFailed(f"org.gnome.Shell.Eval failed: {result}")
        value = json.loads(result) if result else None
        return json.loads(value) if isinstance(value, str) else value

    def tray(self, world):
        return self.eval(world, TRAY_JS)

    def prepare(self, world):
        """Clears the shell's own start-up notifications and hides the banner."""
        self.eval(world, "(() => { imports.ui.main.messageTray.getSources()"
                         ".filter(s => s.title === 'System Information').forEach(s => s.destroy()); return 0; })()")
        self.quiet_banners(world)

    def cards(self, world):
        return self.eval(world, """(() => JSON.stringify(Object.entries(
            imports.ui.main.notificationDaemon._fdoNotificationDaemon._notifications)
            .filter(([id, n]) => n.notification)
            .map(([id, n]) => ({ id: Number(id), app: n.appName, summary: n.notification.title,
                                 body: n.notification.bannerBodyText, urgency: n.notification.urgency }))))()""")

    def on_screen(self, world):
        return len(self.cards(world))

    def quiet_banners(self, world):
        """Expires whatever banner shows until none does (no user input: GNOME keeps it up)."""
        for _ in range(8):
            state = self.eval(world, "(() => { const t = imports.ui.main.messageTray;"
                                     " if (t._notificationState !== 0) t._expireNotification();"
                                     " return t._notificationState; })()")
            if state == 0 and self.tray(world)["state"] == 0:
                return
            time.sleep(0.8)
        raise ServerFailed("GNOME Shell's banner does not hide: %s" % self.tray(world))

    def banner_popped(self, world):
        tray = self.tray(world)
        if tray["state"] == 0:
            return False
        return f"state {tray['state']}, banner {tray['banner']}"

    def alert(self, run, notify):
        tray = run.wait(lambda: (lambda t: t if t["state"] in (1, 2) and t["banner"] else None)(self.tray(run.world)),
                        timeout=4)
        if not tray:
            return no(f"no banner after the alert: {self.tray(run.world)}")
        banner = tray["banner"]
        return check(banner["title"] == notify["summary"],
                     f"banner shows \"{banner['title']}\" (urgency {banner['urgency']})",
                     f"the banner shows {banner}")

    def press(self, world, notification_id, key, label):
        pressed = self.eval(world, f"""(() => {{
            const n = imports.ui.main.notificationDaemon._fdoNotificationDaemon._notifications[{int(notification_id)}];
            const action = n && n.notification && n.notification.actions.find(a => a.label === {json.dumps(label)});
            if (!action) return false;
            action.callback();
            return true; }})()""")
        if not pressed:
            return True, f"no button \"{label}\" on GNOME's notification {notification_id}"
        return True, f"GNOME Shell's own callback of its \"{label}\" button"

    def screenshot(self, world, path):
        bus = self.bus(world)
        bus.request_name("org.gnome.Screenshot")
        ok, written = bus.call_blocking("org.gnome.Shell.Screenshot", "/org/gnome/Shell/Screenshot",
                                        "org.gnome.Shell.Screenshot", "Screenshot", "bbs", [False, False, path],
                                        timeout=30)
        if not ok:
            raise ServerFailed(f"GNOME Shell's Screenshot refused: {written}")
