"""KDE Plasma 6 as a user sees it: plasmashell (6.3 in Debian 13, 6.7 in testing) on Xvfb inside
a cached chroot with kded6 (the tray's StatusNotifierWatcher) and kactivitymanagerd; our daemon
and CLI, built on the host, run outside on the chroot's session bus. The Plasma 6 applet
(installed by `make install-files` into a prefix, added to the panel by a Plasma script), the
tray item and the KDE job cards are read back from the screen with OCR (plasma_panel.py's); then
our MPRIS player on the lock screen, in the Media Player applet and under the media keys
(lockscreen_plasma.py).

Rows `plasma6.3` (trixie) and `plasma6.7` (forky) of scripts/desktop-matrix.
"""
import json
import os
import re
import signal
import subprocess
import time

from chroot_session import ChrootSession, make_chroot
from plasma_panel import click, letters, nearly_shows, ocr_readings, ocr_words, shows, text_of
from scenario import APPS, Run, check, no
from world import ServerFailed
from scenario_jobs import job_paths
import segments_plasma
from lockscreen_plasma import LockScreenChecks

APPLET = "io.github.liveactivities.compact6"
APPLET5 = "io.github.liveactivities.compact"
BUS = "io.github.liveactivities.LiveActivities1"
MPRIS_PATH = "/org/mpris/MediaPlayer2"
MANAGER = "/io/github/liveactivities/LiveActivities1"
KDE_SESSION = {"XDG_CURRENT_DESKTOP": "KDE", "KDE_FULL_SESSION": "true", "KDE_SESSION_VERSION": "6",
               "XDG_SESSION_TYPE": "x11"}
SCREEN = (1920, 1080)
# Where Plasma stacks notification popups in these sessions (the panel holds no notifications
# applet, so they keep their place at the screen's top left): (w, h, x, y) above the panel.
POPUP_COLUMN = (480, SCREEN[1] - 64, 0, 0)
PANEL = (SCREEN[0], 64, 0, SCREEN[1] - 64)  # Plasma 6's floating bottom panel, with its margin
MARKUP_TITLE = "<b>Bold</b>"


class Plasma6Panel:
    """One Plasma 6 row: `play_panel` returns its checks as (name, (verdict, why))."""
    packages = ["tesseract-ocr", "xdotool", "imagemagick", "x11-utils", "python3-dbus", "python3-gi", "make", "playerctl"]
    jobs = True

    def __init__(self, name, suite, screenshot):
        self.name, self.suite, self.screenshot_name = name, suite, screenshot

    def play_panel(self, world, bins, repo, shots):
        begun = time.time()
        root = make_chroot(self.suite)
        made = time.time() - begun
        session = ChrootSession(root, world)
        checks = []
        try:
            shell_env = self.start_desktop(world, session, bins, repo)
            base_env = world.env
            world.env = lambda **extra: base_env(**{**KDE_SESSION, **extra})  # the daemon sees a Plasma session
            run = Run(self, world, bins, repo, os.path.join(shots, self.screenshot_name))
            run.start_daemon()
            run.version = session.run(["dpkg-query", "-W", "-f=${Version}", "plasma-workspace"], shell_env).stdout
            print(f"  plasma-workspace {run.version} in {root} (chroot ready in {made:.0f} s)", flush=True)
            panel = PanelChecks(run, session, self.name, checks)
            panel.play()
            # Issue 26: our MPRIS player on the lock screen, in the Media Player applet, under the keys.
            LockScreenChecks(run, session, shell_env, SCREEN, os.path.dirname(run.screenshot_path),
                             self.screenshot_name.replace("-popup.png", ""), panel.add).play()
        finally:
            print(f"  row time {time.time() - begun:.0f} s, of which {made:.0f} s making or finding the chroot",
                  flush=True)
            log = world.log("plasmashell", tail=4000) if world.processes else ""
            world.stop()
            session.remove()
        # Plasma 6 notes, once per scan, that it skips the 5.27 applet installed beside ours (its
        # metadata has no KPackageStructure): the intended outcome, not an error of ours.
        errors = [line for line in log.splitlines() if (APPLET in line or "liveactivit" in line.lower())
                  and not (f'"{APPLET5}"' in line and "does not match requested format" in line)]
        checks.append(("applet: no QML errors", check(not errors, "plasmashell logged nothing about the applet",
                                                      f"{len(errors)} lines: {errors[:3]}")))
        return checks

    def start_desktop(self, world, session, bins, repo):
        """The bus, Xvfb, kactivitymanagerd, kded6 and plasmashell inside, with our applets
        installed into a prefix first in XDG_DATA_DIRS; the environment they share."""
        session.start_bus()
        session.start_xvfb("%dx%d" % SCREEN)
        prefix = session.inside("prefix")
        subprocess.run(["make", "-s", "-C", repo, "install-files", f"BIN={bins}", f"PREFIX={session.host(prefix)}"],
                       check=True, stdout=subprocess.DEVNULL, timeout=60)
        # Notification and job popups at the top left, away from the applet's popup (the panel
        # is at the bottom, the applet at its right end).
        with open(session.host(os.path.join(session.inside("home", ".config"), "plasmanotifyrc")), "w") as f:
            f.write("[Notifications]\nPopupPosition=TopLeft\n")
        env = session.env(QT_QPA_PLATFORM="xcb", QT_QUICK_BACKEND="software",
                          XDG_DATA_DIRS=f"{prefix}/share:/usr/local/share:/usr/share", **KDE_SESSION)
        activities = session.spawn("kactivitymanagerd", ["/usr/lib/x86_64-linux-gnu/libexec/kactivitymanagerd"], env)
        world.wait_for_name("org.kde.ActivityManager", timeout=30, process=activities, process_name="kactivitymanagerd")
        kded = session.spawn("kded6", ["kded6"], env)
        world.wait_for_name("org.kde.kded6", timeout=30, process=kded, process_name="kded6")
        # What plasma-session asks of kded once the session is up: its second phase of modules.
        subprocess.run(["dbus-send", f"--bus={world.session_address}", "--type=method_call", "--dest=org.kde.kded6",
                        "/kded", "org.kde.kded6.loadSecondPhase"], timeout=10)
        world.wait_for_name("org.kde.StatusNotifierWatcher", timeout=60, process=kded, process_name="kded6")
        # Plasma 6.7's shell once stayed up for 90 s without taking its names (a CI run; the log
        # no different from a good start): a shell still running without them is started once
        # more, saying so. One that exits fails the row, as does a second start without them.
        for attempt in (1, 2):
            self.shell = session.spawn("plasmashell", ["plasmashell", "--no-respawn"], env)
            try:
                for name in ["org.freedesktop.Notifications", "org.kde.JobViewServer", "org.kde.plasmashell"]:
                    world.wait_for_name(name, timeout=90, process=self.shell, process_name="plasmashell")
                break
            except ServerFailed as failure:
                if attempt == 2 or self.shell.poll() is not None:
                    raise
                print(f"  plasmashell started without its names ({str(failure).splitlines()[0]}); starting it once more",
                      flush=True)
                os.killpg(self.shell.pid, signal.SIGKILL)
                self.shell.wait(timeout=10)
        return env

    # What the scenario's Run asks of a server.
    def screenshot(self, world, path):
        subprocess.run(["import", "-window", "root", path], env=world.env(), check=True, timeout=30)


class PanelChecks:
    """The checks of one Plasma 6 row, in the order a user would meet them."""

    def __init__(self, run, session, name, checks):
        self.run, self.session, self.name, self.checks = run, session, name, checks
        self.world = run.world

    def add(self, name, verdict):
        self.checks.append((name, verdict))
        print(f"  {name:28} {verdict[0]:4} {verdict[1]}", flush=True)

    def compact(self):
        return str(self.run.bus_call(BUS, MANAGER, "org.freedesktop.DBus.Properties", "Get", "ss", [BUS, "CompactText"]))

    def script(self, code):
        return str(self.run.bus_call("org.kde.plasmashell", "/PlasmaShell", "org.kde.PlasmaShell", "evaluateScript",
                                     "s", [code])).strip()

    def play(self):
        run = self.run
        now = int(time.time())
        run.la("start", "focus", "session-type=Pomodoro", "task=Write the report", "--id", "focus")
        run.la("start", "fasting", "fasting-hours=16", f"start-time={now - 8 * 3600 + 120}", "--id", "fast")
        run.la("start", "generic", "title=Tea", "body=Green tea steeping", f"timer-start={now}",
               f"timer-end={now + 600}", "--id", "tea", "--app-name", APPS["tea"])
        self.add("tray item registered", self.check_tray())
        self.add("job cards: header, body, bar", self.check_jobs())
        self.add("only the Plasma 6 applet offered", self.check_offered())
        self.add("panel: compact text", self.check_compact())
        started = time.time()
        run.la("update", "tea", "title=Oolong", "--relevance", "10")
        words = run.wait(lambda: next((ws for ws in ocr_readings(self.world, PANEL, "p2") if shows(ws, "Oolong")), None),
                         timeout=15, step=0.5) or []
        self.add("panel: follows Update", check(bool(words), f"the panel reads {text_of(words)!r} "
                                                f"{time.time() - started:.1f} s after the Update",
                                                "the panel never showed the updated title 'Oolong'"))
        run.la("start", "generic", f"title={MARKUP_TITLE}", "body=plain <i>text</i>", "--id", "markup",
               "--relevance", "1")
        closed = self.cost()
        popup, applet = self.open_popup()
        self.add("popup: every live title", self.check_rows(popup))
        self.add("popup: markup shown as text", check(shows(popup, MARKUP_TITLE) and shows(popup, "plain <i>text</i>"),
                                                      f"OCR reads {MARKUP_TITLE!r} and 'plain <i>text</i>' literally",
                                                      f"not literal; OCR: {text_of(popup)!r}"))
        opened = self.cost()
        self.add("applet: D-Bus cost", self.verdict_cost(closed, opened))
        self.add("popup: Pause pauses", self.press_pause(popup))
        time.sleep(1.5)  # the popup reads its rows again after the press
        self.run.server.screenshot(self.world, self.world.file("popup.png"))
        shot = run.screenshot_path
        subprocess.run(["convert", self.world.file("popup.png"), "-crop", "1100x640+%d+%d" % (
            max(0, min(SCREEN[0] - 1100, int(applet["x"]) - 550)), SCREEN[1] - 640), "+repage", shot], check=True,
            timeout=30)
        print(f"  screenshot: {shot}", flush=True)
        if applet:  # last, while the popup is open: the scheduled session's row must not move the others
            shots = os.path.dirname(run.screenshot_path)
            self.add("popup: a fast's segmented bar", segments_plasma.check_segments(
                self.world, self.popup_area, os.path.join(shots, f"{self.name}-segments.png")))
        click(run, applet)  # closes the popup again
        remaining = ["focus", "fast", "tea", "markup"]
        if applet:  # with the popup closed, as a user away from the panel would meet it
            # Plasma stacks popups on at most 80 % of the screen and hides the rest; 6.7 sorts every
            # job above every notification, so with four job cards and the markup card up, a new
            # notification (the start alert) is hidden there (docs/desktops-plasma.md). The tea and
            # the markup card end first, leaving the room a user with two timers would have.
            for key in ["tea", "markup"]:
                run.la("end", key, "--dismissal", "immediate")
                remaining.remove(key)
            self.add("scheduled start, then its alert", segments_plasma.check_scheduled(
                run, POPUP_COLUMN, os.path.join(shots, f"{self.name}-scheduled.png")))
        for key in remaining:
            run.la("end", key, "--dismissal", "immediate")
        self.add("panel: empty after End", self.check_empty())

    # --- the checks -------------------------------------------------------------------------

    def check_tray(self):
        items = self.run.bus_call("org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher",
                                  "org.freedesktop.DBus.Properties", "Get", "ss",
                                  ["org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems"])
        ours = self.run.wait(lambda: [str(i) for i in self.run.bus_call(
            "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher", "org.freedesktop.DBus.Properties", "Get", "ss",
            ["org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems"])
            if str(i).startswith(self.run.daemon_name + "/")], timeout=10)  # registered by path: `<unique name>/path`
        if not ours:
            return no(f"kded6's watcher lists {list(map(str, items))}, not ours")
        self.tray_name = ours[0].split("/")[0]
        status = self.tray_status()
        return check(status == "Active", f"registered with kded6's watcher ({ours[0]}), Status {status}",
                     f"registered, but Status {status}")

    def tray_status(self):
        return str(self.run.bus_call(self.tray_name, "/StatusNotifierItem", "org.freedesktop.DBus.Properties", "Get",
                                     "ss", ["org.kde.StatusNotifierItem", "Status"]))

    def check_jobs(self):
        """Plasma stacks the job popups top left (as configured): OCR finds each job's header (the app),
        the fast's body and its percentage beside the bar."""
        run = self.run
        run.wait(lambda: len([p for _, p in job_paths(run) if p and p.startswith("/")]) == 3, timeout=10)
        paths = [p for _, p in job_paths(run) if p and p.startswith("/")]
        fast = json.loads(run.la("get", "fast", "--json"))
        probe = fast.get("body", "").splitlines()[0].split("·")[0].strip() if fast.get("body") else ""
        percent = f"{int(fast.get('progress', 0) * 100)}%"
        cards = (560, 760, 0, 0)

        def seen():
            words = ocr_words(self.world, cards, "jobs")
            ok = shows(words, probe) and shows(words, "Fasting") and any(percent in w["text"] for w in words)
            return words if ok else None

        words = run.wait(seen, timeout=15, step=1) or ocr_words(self.world, cards, "jobs")
        self.world_shot("jobs.png", cards)
        return check(len(paths) == 3 and shows(words, probe) and shows(words, "Fasting")
                     and any(percent in w["text"] for w in words),
                     f"3 jobs; OCR of the job popups reads the header 'Fasting', the body {probe!r} and {percent} by "
                     "its bar", f"{len(paths)} jobs; looked for 'Fasting', {probe!r}, {percent}; OCR: {text_of(words)!r}")

    def world_shot(self, name, crop):
        subprocess.run(["import", "-window", "root", "-crop", "%dx%d+%d+%d" % crop, "+repage", self.world.file(name)],
                       env=self.world.env(), timeout=30)

    def check_offered(self):
        """Plasma 6 lists our Plasma 6 applet among the widgets it can add, and not the 5.27 one."""
        known = self.script("print(knownWidgetTypes.filter(function (t) { return t.indexOf('io.github.liveactivities')"
                            " === 0; }).join(' '))").split()
        added = self.script(f"print(panels()[0].addWidget('{APPLET}').id)")
        return check(known == [APPLET], f"knownWidgetTypes lists only {APPLET} of ours (the 5.27 applet, installed "
                     f"beside it, is not offered); added to the panel as applet {added}",
                     f"knownWidgetTypes lists {known}")

    def check_compact(self):
        seen = []

        def matches():
            readings = ocr_readings(self.world, PANEL, "panel", after_grab=lambda: seen.append(
                (time.time(), self.compact())))
            # Plasma 6.3 reads CompactText once a second (no signal watching), so a seconds
            # countdown on the panel may be a poll behind the daemon: every text CompactText had
            # in the 2.5 s before the grab counts (from the daemon's recorded signals).
            texts = self.compact_texts(seen[-1][0] - 2.5, seen[-1][0]) | {seen[-1][1]}
            return next(((words, texts) for words in readings if any(nearly_shows(words, text) for text in texts)), None)

        found = self.run.wait(matches, timeout=15, step=0.5)
        words, texts = found or (ocr_words(self.world, PANEL, "panel"), {seen[-1][1]} if seen else {"?"})
        return check(bool(found), f"OCR of the panel reads {text_of(words)!r}: CompactText {sorted(texts)!r} (emoji aside; its time exactly, a word of its title at most one letter off)",
                     f"OCR of the panel reads {text_of(words)!r}, CompactText was {sorted(texts)!r}")

    def compact_texts(self, start, end):
        """The texts CompactText had between `start` and `end` (unix seconds): the one it had at
        `start` and each it changed to until `end`, as the daemon's PropertiesChanged announced."""
        texts, current = set(), None
        for m in self.applet_calls()[1]:
            changed = m["args"][1] if len(m["args"]) > 1 and isinstance(m["args"][1], dict) else {}
            if "CompactText" not in changed:
                continue
            value = changed["CompactText"].get("v") if isinstance(changed["CompactText"], dict) else changed["CompactText"]
            if m["at"] <= start:
                current = value
            elif m["at"] <= end:
                texts.add(value)
        return texts | ({current} if current is not None else set())

    def applet_calls(self):
        """Calls from plasmashell's connection to the daemon so far, and the daemon's CompactText
        changes (PropertiesChanged) so far."""
        record = self.run.record()
        shell = self.run.bus_call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                  "GetNameOwner", "s", ["org.kde.plasmashell"])
        # Only the applet's: calls on our manager and activity objects. The same connection also
        # carries Plasma's system tray reading our tray item (addressed by the unique name since
        # the item registers by path, issue 28) and its media stack reading our MPRIS player
        # (issue 26, counted apart: `mpris_calls`).
        calls = [m for m in record.messages if m["kind"] == "call" and m["sender"] == shell
                 and m["destination"] in (BUS, self.run.daemon_name) and str(m.get("path", "")).startswith(MANAGER)]
        changes = [m for m in record.signals("PropertiesChanged", self.run.daemon_name) if m.get("path") == MANAGER]
        return calls, changes

    def mpris_calls(self):
        """Calls from plasmashell to our MPRIS player so far (Plasma's Media Player applet and
        multiplexer reading it)."""
        shell = self.run.bus_call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                  "GetNameOwner", "s", ["org.kde.plasmashell"])
        return [m for m in self.run.record().messages if m["kind"] == "call" and m["sender"] == shell
                and m.get("path") == MPRIS_PATH]

    def cost(self):
        """The applet's calls to the daemon while the compact text changes 10 times (the tea
        timer ticks each second): (calls, seconds, by member)."""
        calls, changes = self.applet_calls()
        mpris = len(self.mpris_calls())
        begun = time.time()
        self.run.wait(lambda: len(self.applet_calls()[1]) >= len(changes) + 10, timeout=30, step=0.5)
        after, _ = self.applet_calls()
        new = after[len(calls):]
        members = {}
        for m in new:
            members[m["member"]] = members.get(m["member"], 0) + 1
        return len(new), time.time() - begun, members, len(self.mpris_calls()) - mpris

    def verdict_cost(self, closed, opened):
        per_minute = lambda c: c[0] * 60 / max(c[1], 1)
        text = (f"popup closed: {per_minute(closed):.0f} D-Bus calls/min {closed[2]}; popup open: "
                f"{per_minute(opened):.0f} calls/min {opened[2]}; no process started (no CLI); besides, Plasma's "
                f"media stack read our MPRIS player {closed[3] * 60 / max(closed[1], 1):.0f} times/min")
        # 6.3 reads CompactText once a second; 6.4+ follows PropertiesChanged and asks nothing.
        return check(per_minute(closed) <= 75, text, text + ": more than one read a second with the popup closed")

    def open_popup(self):
        target = self.run.wait(lambda: next((w for w in ocr_words(self.world, PANEL, "panel-3")
                                             if "oolong" in w["text"].lower()), None), timeout=8, step=0.5)
        if target is None:
            return [], None
        click(self.run, target)
        x = max(0, min(SCREEN[0] - 1100, int(target["x"]) - 550))
        self.popup_area = (1100, 700, x, SCREEN[1] - PANEL[1] - 700)
        words = self.run.wait(lambda: (lambda ws: ws if shows(ws, "Oolong") and shows(ws, "Pomodoro") else None)(
            ocr_words(self.world, self.popup_area, "popup")), timeout=10, step=1) \
            or ocr_words(self.world, self.popup_area, "popup")
        return words, target

    def check_rows(self, words):
        if not words:
            return no("the applet's text was not found on the panel to click it")
        rows = json.loads(self.run.la("list", "--json"))
        titles = [r["title"] for r in rows if r["status"] in ("active", "paused", "stale")]
        missing = [t for t in titles if not shows(words, t.split("·")[0])]
        return check(not missing, f"a click on the panel text opened the popup; OCR reads every live title {titles}",
                     f"missing {missing}; OCR of the popup: {text_of(words)!r}")

    def press_pause(self, words):
        def target():
            words = ocr_words(self.world, self.popup_area, "popup-now")  # as laid out now (rows may have grown)
            heading = next((w for w in words if "oolong" in w["text"].lower()), None)
            buttons = [w for w in words if letters(w["text"]) == "pause" and heading and w["y"] > heading["y"]]
            return (min(buttons, key=lambda w: w["y"]) if buttons else None), words

        # Click only once two readings in a row put the button in the same place: a row that is
        # still growing (a fast's segmented bar arriving) moves the buttons under the pointer.
        button, words = target()
        for _ in range(6):
            again, words = target()
            if button and again and abs(again["x"] - button["x"]) <= 3 and abs(again["y"] - button["y"]) <= 3:
                break
            button = again
        else:
            button = None
        if not button:
            return no(f"no Pause button read in the same place twice under the Oolong row; OCR: {text_of(words)!r}")
        click(self.run, button)
        paused = self.run.wait(lambda: json.loads(self.run.la("get", "tea", "--json")).get("status") == "paused",
                               timeout=8)
        return check(paused, "a click on Pause in the popup paused the tea timer (the daemon's status: paused)",
                     "the tea activity is not paused after the click on Pause")

    def check_empty(self):
        passive = self.run.wait(lambda: self.tray_status() == "Passive", timeout=8)

        # The whole panel: when the applet's text goes, the items beside it move into its place.
        # What may read like a time there is Plasma's clock (HH:MM); the applet's text would
        # hold the timers (M:SS), e.g. the paused tea's.
        area = PANEL

        def empty():
            words = ocr_words(self.world, area, "panel-after-end")
            clock = {time.strftime("%H:%M", time.localtime(time.time() - d)) for d in (0, 60)}
            text = " ".join(w["text"] for w in words if not any(c in w["text"] for c in clock))
            titles = ["oolong", "pomodoro", "fasting", "bold"]  # the titles the row used (but "Tea", too short)
            return None if re.search(r"\d:\d\d", text) or any(t in letters(text) for t in titles) else (words,)

        found = self.run.wait(empty, timeout=10, step=0.5)
        return check(passive and found, "the tray item is Passive and the panel reads no activity, only the clock (OCR: "
                     f"{text_of(found[0]) if found else ''!r})",
                     f"tray Status {self.tray_status()}; the panel still reads "
                     f"{text_of(ocr_words(self.world, area, 'panel-after-end'))!r}")
