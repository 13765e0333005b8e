"""The compact view where GNOME users look, checked in real GNOME Shell 43 (headless): our
extension's top-bar island (installed by `make install-files` into a prefix) and our tray item
through Debian's AppIndicator extension. Everything is read back from the shell with Eval:
labels, the open menu's rows, style classes; buttons are pressed the way a click does.
"""
import os
import re
import signal
import subprocess
import time

import lockscreen_gnome
import panel_gnome_js as js
import segments_gnome
from scenario import check, no, yes
from servers_wayland import GnomeShell
from world import ServerFailed

UUID = "liveactivities@liveactivities.github.io"
UUID45 = "liveactivities-shell45@liveactivities.github.io"
APPINDICATOR = "ubuntu-appindicators@ubuntu.com"
BUS = "io.github.liveactivities.LiveActivities1"
MANAGER = "/io/github/liveactivities/LiveActivities1"


class GnomePanel(GnomeShell):
    """GNOME Shell with our extension (from the prefix) and the AppIndicator extension enabled."""
    name = "gnome-panel"
    packages = ["gnome-shell", "gjs", "gnome-shell-extension-appindicator", "make", "fonts-noto-color-emoji"]
    extensions = [UUID, UUID45, APPINDICATOR]  # both builds enabled, as after an upgrade from 43
    lockable = True  # the lock screen checks (lockscreen_gnome.py)

    def play_panel(self, world, bins, repo, shots):
        """Installs into a prefix, starts the shell with the prefix's data dir first, runs the checks."""
        run = PanelRun(self, world, bins, repo, shots)
        self.data_dirs = run.install() + ":/usr/share"
        self.start(world)
        return run.play()


class PanelRun:
    """The checks of one shell; subclasses change the build (uuid), the prefix and screenshot names."""
    uuid = UUID
    #: the other build, installed and enabled too: the shell must call it out of date, not an error
    other_uuid = UUID45
    #: screenshots are saved as docs/screenshots/<shot_prefix>-island.png and …-island-menu.png
    shot_prefix = "gnome"

    def __init__(self, shell, world, bins, repo, shots):
        self.shell, self.world, self.bins, self.repo, self.shots = shell, world, bins, repo, shots
        self.prefix = self.install_prefix(world)
        self.rows = []
        self.daemon = None
        #: more liveactivityd.conf lines for the next daemon start (the lock screen's privacy)
        self.daemon_config = ""

    # --- plumbing -------------------------------------------------------------------------

    def js(self, body):
        return self.shell.eval(self.world, js.script(body))

    def call(self, member, signature="", args=()):
        return self.shell.bus(self.world).call_blocking(BUS, MANAGER, BUS, member, signature, list(args), timeout=20)

    def compact(self):
        return str(self.shell.bus(self.world).call_blocking(BUS, MANAGER, "org.freedesktop.DBus.Properties", "Get", "ss",
                                                            [BUS, "CompactText"], timeout=20))

    def get(self, activity):
        return self.call("Get", "s", [activity])

    def la(self, *args):
        result = subprocess.run([os.path.join(self.prefix, "bin", "liveactivity"), *args], env=self.daemon_env,
                                capture_output=True, text=True, timeout=30)
        if result.returncode != 0:
            raise ServerFailed(f"liveactivity {' '.join(args)}: {result.stdout}{result.stderr}")
        return result.stdout.strip()

    def install_prefix(self, world):
        return world.path("prefix")

    def island(self):
        return self.js(js.ISLAND)

    def label(self):
        island = self.island()
        return " ".join(island["texts"]) if island and island["visible"] else None

    def wait(self, condition, timeout=5.0, step=0.05):
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = condition()
            if value:
                return value
            time.sleep(step)
        return condition()

    def add(self, check_name, verdict):
        self.rows.append((check_name, verdict))
        print(f"  {check_name:52} {verdict[0]:4} {verdict[1]}", flush=True)

    def install(self):
        subprocess.run(["make", "-s", "-C", self.repo, "install-files", f"PREFIX={self.prefix}", f"BIN={self.bins}"],
                       check=True, capture_output=True, timeout=60)
        return os.path.join(self.prefix, "share")

    def start_daemon(self):
        home = self.world.path("daemon")
        # The panel rows check the top bar: a focus session must not turn GNOME's banners off here.
        with open(self.world.file("daemon", "config", "liveactivities", "liveactivityd.conf"), "w") as f:
            f.write("quiet-desktop = off\n" + self.daemon_config)
        self.daemon_env = self.world.env(HOME=home, XDG_STATE_HOME=os.path.join(home, "state"),
                                         XDG_CONFIG_HOME=os.path.join(home, "config"),
                                         XDG_DATA_HOME=os.path.join(home, "data"))
        self.daemon = self.world.spawn("liveactivityd", [os.path.join(self.prefix, "bin", "liveactivityd")],
                                       env=self.daemon_env)
        self.world.wait_for_name(BUS, process=self.daemon, process_name="liveactivityd")

    def stop_daemon(self):
        os.killpg(self.daemon.pid, signal.SIGTERM)
        self.daemon.wait(timeout=10)

    def screenshot(self, name, x, y, width, height, scale="200%"):
        path = os.path.join(self.shots, name)
        raw = self.world.file("shots", name)
        inner = getattr(self.world, "inner", lambda path: path)  # the shell may see the file by another name
        bus = self.shell.bus(self.world)
        bus.request_name("org.gnome.Screenshot")
        ok, _ = bus.call_blocking("org.gnome.Shell.Screenshot", "/org/gnome/Shell/Screenshot",
                                  "org.gnome.Shell.Screenshot", "ScreenshotArea", "iiiibs",
                                  [int(x), int(y), int(width), int(height), False, inner(raw)], timeout=30)
        if not ok:
            raise ServerFailed(f"ScreenshotArea refused for {name}")
        subprocess.run(["convert", raw, "-scale", scale, path], check=True, timeout=30)

    # --- the checks -----------------------------------------------------------------------

    def play(self):
        self.start_daemon()
        state = self.js(js.EXTENSION_STATE % f"'{self.uuid}'")
        installed = os.path.isfile(os.path.join(self.prefix, "share", "gnome-shell", "extensions", self.uuid,
                                                "extension.js"))
        self.add("extension enabled from the prefix", check(state == 1 and installed,
                 f"installed by make install-files, state {state}", f"state {state}, installed {installed}"))
        other = self.js(js.EXTENSION_INFO % f"'{self.other_uuid}'")
        self.add("the other build: out of date, no error", check(other and other["state"] == 4 and not other["error"],
                 f"{self.other_uuid}: state 4 (OUT_OF_DATE)", f"{self.other_uuid}: {other}"))
        self.check_doctor()
        island = self.island()
        self.add("hidden while nothing is live", check(island and island["inPanel"] and not island["visible"],
                 "in statusArea, hidden", f"{island}"))

        now = int(time.time())
        self.la("start", "generic", "title=Backup", "body=Copying photos", f"timer-end={now + 123}",
                "--id", "backup", "--relevance", "5")
        self.la("start", "focus", "session-type=Pomodoro", "task=Write report", "--id", "focus", "--relevance", "1")
        shown = self.wait(lambda: (lambda t: self.label() == t and t)(self.compact()))
        self.add("label = CompactText", check(shown, f"\"{shown}\"", f"label {self.label()!r}, CompactText {self.compact()!r}"))

        begun = time.time()
        self.call("Update", "sa{sv}a{sv}", ["backup", {"title": "Backup to NAS"}, {}])
        followed = self.wait(lambda: (lambda t: t.startswith("Backup to NAS") and self.label() == t)(self.compact()),
                             timeout=3, step=0.02)
        took = time.time() - begun
        self.add("follows an Update within 1 s", check(followed and took < 1.0, f"{took * 1000:.0f} ms from the Update call",
                 f"after {took:.1f} s label {self.label()!r}, CompactText {self.compact()!r}"))

        before = self.label()
        begun = time.time()
        ticked = self.wait(lambda: (lambda l: l if l and l != before and l == self.compact() else None)(self.label()),
                           timeout=70, step=0.2)
        self.add("follows a daemon tick (no client call)", check(ticked, f"\"{before}\" → \"{ticked}\" after "
                 f"{time.time() - begun:.1f} s", f"label stayed {before!r}; CompactText {self.compact()!r}"))

        # The screenshots show the AppIndicator's item too, once it shows the same text (checked later).
        self.wait(lambda: any(i["visible"] and self.compact() in " ".join(i["texts"]) for i in self.js(js.APPINDICATORS)),
                  timeout=5, step=0.2)
        self.shell.prepare(self.world)  # no start-up banner and no overview in the screenshots
        self.js("imports.ui.main.overview.hide(); return true;")
        self.wait(lambda: not self.js("return imports.ui.main.overview.visible;"), timeout=3)
        island = self.island()
        self.screenshot(f"{self.shot_prefix}-island.png", max(0, island["x"] - 420), 0, 1280 - max(0, island["x"] - 420),
                        island["height"])
        self.check_menu()
        segments_gnome.check_segments(self)
        segments_gnome.check_scheduled(self)
        self.check_buttons()
        self.check_lock_screen()
        self.check_restart()
        self.check_appindicator()
        self.check_end_and_disable()
        return self.rows

    def check_doctor(self):
        """`liveactivity doctor` names the build that fits this shell and says it is enabled, and
        says what the lock screen will show (reading GNOME's show-in-lock-screen as the shell does:
        its keyfile settings, so with the shell's config home and no liveactivityd.conf)."""
        result = subprocess.run([os.path.join(self.prefix, "bin", "liveactivity"), "doctor"],
                                env=dict(self.daemon_env, XDG_DATA_DIRS=os.path.join(self.prefix, "share") + ":/usr/share",
                                         GSETTINGS_BACKEND="keyfile", XDG_CONFIG_HOME=self.world.path("home", ".config")),
                                capture_output=True, text=True, timeout=30)
        line = next((l for l in result.stdout.splitlines() if "] GNOME extension: " in l), "")
        self.add("doctor: the build fits the shell and is enabled", check(
            line.startswith("[ok] GNOME extension: GNOME Shell ") and f"{self.uuid} fits and is enabled" in line,
            line, f"{line!r}\n{result.stdout}{result.stderr}"))
        lock = next((l for l in result.stdout.splitlines() if "] lock screen: " in l), "")
        self.add("doctor: what the lock screen shows", check(
            lock.startswith("[ok] lock screen: GNOME Shell ") and "title, body, time and bar" in lock
            and lock.endswith(f"({self.uuid} runs in unlock-dialog)"), lock, f"{lock!r}\n{result.stdout}{result.stderr}"))

    def check_menu(self):
        # The menu opens, and is laid out, over the next frames.
        state = {}

        def matches():
            # The menu and the daemon are read one after the other; a countdown that ticks in
            # between (the texts carry seconds) makes them differ, so both are read again.
            menu = self.wait(lambda: (lambda m: m if m and m["open"] and m["x"] is not None and m["height"] > 0 else None)(
                self.js(js.MENU)), timeout=3)
            expected = []
            for activity in ("backup", "focus"):
                props = self.get(activity)
                expected.append((str(props["title"]), str(props["body"]),
                                 [str(label) for _, label in props["actions"]], float(props["progress"])))
            got = [(s["texts"][0] if s["texts"] else None, s["texts"][1] if len(s["texts"]) > 1 else None, s["buttons"],
                    s["progress"]) for s in (menu or {}).get("sections", [])]
            separators = [s["separator"] for s in (menu or {}).get("sections", [])]
            state.update(menu=menu, expected=expected, got=got, separators=separators)
            return menu and menu["open"] and len(got) == 2 and separators == [False, True] and all(
                g[0] == e[0] and g[1] == e[1] and g[2] == e[2] and g[3] is not None and abs(g[3] - e[3]) < 0.02
                for g, e in zip(got, expected))
        ok = self.wait(matches, timeout=3, step=0.2)
        menu, expected, got, separators = state["menu"], state["expected"], state["got"], state["separators"]
        self.add("menu lists every live activity", check(ok, "; ".join(f"{g[0]} / {g[1]!r} / {', '.join(g[2])} / "
                 f"{g[3]:.0%}" for g in got) if ok else "", f"menu {got}, expected {expected}, separators {separators}"))
        if menu:
            island = self.island()
            left = min(menu["x"], island["x"] - 420)
            self.screenshot(f"{self.shot_prefix}-island-menu.png", max(0, left), 0, 1280 - max(0, left),
                            menu["y"] + menu["height"] + 8)
        self.js(js.CLOSE_MENU)

    def check_buttons(self):
        title = str(self.get("backup")["title"])
        pressed = self.js(js.press(title, "Pause"))
        paused = self.wait(lambda: str(self.get("backup")["status"]) == "paused", timeout=3)
        styled = self.wait(lambda: "liveactivities-paused" in (self.island()["classes"] or ""), timeout=2)
        menu = self.js(js.MENU)
        self.js(js.CLOSE_MENU)
        resume = menu and "Resume" in menu["sections"][0]["buttons"]
        self.add("menu button pauses", check(pressed == "pressed" and paused and styled and resume,
                 "Pause → Status paused, island styled liveactivities-paused, button now Resume",
                 f"press {pressed}, paused {paused}, classes {self.island()['classes']}, menu {menu}"))
        self.la("start", "generic", "title=Old news", "--id", "stale", "--stale-at", str(int(time.time()) + 1))
        stale = self.wait(lambda: any("liveactivities-stale" in (s["titleClasses"] or "") and s["texts"][0] == "Old news"
                                      for s in self.js(js.MENU)["sections"]), timeout=5)
        self.js(js.CLOSE_MENU)
        self.add("stale styled apart", check(stale, "its menu title has liveactivities-stale",
                                             f"menu {self.js(js.MENU)}"))
        self.js(js.CLOSE_MENU)

    def check_lock_screen(self):
        """Issue 26: with a fast beside the paused backup, the focus session and the stale
        activity, the lock screen shows the first three and "+1 more" (lockscreen_gnome.py)."""
        self.la("start", "fasting", "protocol=16:8", f"start-time={int(time.time()) - 12 * 3600 - 20 * 60}",
                "--id", "fasting", "--relevance", "3")
        lockscreen_gnome.check_lock_screen(self, ["backup", "fasting", "focus", "stale"], ticking="focus")
        self.la("end", "fasting")

    def lock_screenshot(self):
        """The whole locked screen, as the user sees it."""
        self.screenshot(f"{self.shot_prefix}-lockscreen.png", 0, 0, 1280, 800, scale="100%")

    def check_restart(self):
        expected = self.compact()
        self.stop_daemon()
        hidden = self.wait(lambda: not self.island()["visible"], timeout=3)
        self.start_daemon()
        back = self.wait(lambda: self.label() == expected and self.label(), timeout=5)
        self.add("hidden when the daemon goes, back when it returns", check(hidden and back,
                 f"hidden, then \"{back}\" again", f"hidden {hidden}, label {self.label()!r}, expected {expected!r}"))

    def check_appindicator(self):
        expected = self.compact()
        titles = [str(self.get(a)["title"]) for a in ("backup", "focus")]
        # The running daemon's item (an earlier one may linger): it registers by object path, so the
        # AppIndicator knows it as `<unique name>@/StatusNotifierItem`.
        key = str(self.shell.bus(self.world).call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                           "org.freedesktop.DBus", "GetNameOwner", "s", [BUS])) + "@"

        def shown():
            for item in self.js(js.APPINDICATORS):
                menu = item["menu"] or []
                if key in item["key"] and item["visible"] and expected in " ".join(item["texts"]) \
                        and all(t in menu for t in titles) and "End" in menu:
                    return item
            return None
        found = self.wait(shown, timeout=10, step=0.3)
        refused = "has no property Menu" in self.world.log("gnome-shell", tail=100000)
        self.add("AppIndicator keeps the tray item, label = CompactText", check(found and not refused,
                 f"{found['key'] if found else ''}: \"{expected}\"; its menu: {', '.join(found['menu']) if found else ''}",
                 f"items {self.js(js.APPINDICATORS)}, refused {refused}, expected {expected!r} and {titles}; "
                 f"{self.tray_diagnosis()}"))

    def tray_diagnosis(self):
        """What the watcher lists, and what the shell and the daemon logged about the tray (a
        CI run once found no item at all after the daemon's restart; 5 runs after it did)."""
        try:
            registered = [str(i) for i in self.shell.bus(self.world).call_blocking(
                "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher", "org.freedesktop.DBus.Properties", "Get",
                "ss", ["org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems"], timeout=5)]
        except Exception as error:  # noqa: BLE001 - a diagnosis must not fail the row
            registered = f"(watcher: {error})"
        shell = [line for line in self.world.log("gnome-shell", tail=100000).splitlines()
                 if re.search(r"ppIndicator|StatusNotifier|appindicator", line)][-8:]
        daemon = [line for line in self.world.log("liveactivityd", tail=100000).splitlines()
                  if re.search(r"(?i)tray|StatusNotifier|watcher", line)][-8:]
        return f"watcher lists {registered}; shell log {shell}; daemon log {daemon}"

    def check_end_and_disable(self):
        # A focus session ends through its own Cancel (no second End beside Complete and Cancel).
        for activity, button in (("backup", "End"), ("focus", "Cancel"), ("stale", "End")):
            title = str(self.get(activity)["title"])
            result = self.js(js.press(title, button))
            if result != "pressed":
                self.add("menu End ends; hidden after the last", no(f"{button} on {activity}: {result}"))
                return
            self.wait(lambda: str(self.get(activity)["status"]) == "ended", timeout=3)
        statuses = {a: str(self.get(a)["status"]) for a in ("backup", "focus", "stale")}
        hidden = self.wait(lambda: not self.island()["visible"], timeout=1)
        self.add("menu End ends; hidden after the last", check(all(s == "ended" for s in statuses.values()) and hidden,
                 "three End presses → ended, island hidden", f"{statuses}, island {self.island()}"))

        self.js(js.DISABLE % f"'{self.uuid}'")
        left = self.wait(lambda: (lambda l: not l["statusArea"] and not l["actors"] and l)(self.js(js.LEFTOVERS)), timeout=3)
        # A signal handler left connected would now touch destroyed actors: make the daemon
        # signal, and wait until the shell has seen it (the AppIndicator item shows the new text).
        self.la("start", "generic", "title=After disable", "--id", "after")
        first = self.wait(lambda: any("After disable" in " ".join(i["texts"]) for i in self.js(js.APPINDICATORS)),
                          timeout=15)
        self.la("update", "after", "title=After disable 2")
        second = first and self.wait(lambda: any("After disable 2" in " ".join(i["texts"])
                                                 for i in self.js(js.APPINDICATORS)), timeout=15)
        seen = bool(first and second)
        if not seen:  # which of the two the tray did not show, and what it shows
            seen = {"start shown": bool(first), "update shown": bool(second), "tray": self.js(js.APPINDICATORS),
                    "compact": self.compact()}
        still_none = self.js(js.LEFTOVERS)
        self.la("end", "after")
        self.js(js.ENABLE % f"'{self.uuid}'")
        self.la("start", "generic", "title=Again", "--id", "again")
        again = self.wait(lambda: self.label() == self.compact() and self.label(), timeout=5)
        mentions = [line for line in self.world.log("gnome-shell", tail=100000).splitlines()
                    if self.uuid in line or "Live Activities:" in line]
        clean = left and seen is True and not still_none["statusArea"] and not still_none["actors"]
        self.add("disable() leaves nothing; enable() works again", check(clean and again and not mentions,
                 f"no statusArea key, no actor, no log line after two daemon signals; re-enabled shows \"{again}\"",
                 f"leftovers {left} / {still_none}, signals seen {seen}, again {again!r}, log {mentions[-10:]}"))


def main(argv):
    """Standalone: panel_gnome.py BIN_DIR [--keep] (the matrix runs it as `gnome-panel`)."""
    import sys
    from world import World
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    world = World("gnome-panel", keep="--keep" in argv)
    shell = GnomePanel()
    try:
        world.start_bus("session")
        shell.play_panel(world, argv[0], repo, os.path.join(repo, "docs", "screenshots"))
    finally:
        print(world.dir)
        world.stop()


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
