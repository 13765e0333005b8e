"""The one scenario every server runs, and the checks that fill a row of the table.

Our daemon (the built liveactivityd) runs on the server's private bus; the scenario drives it
with the built `liveactivity` CLI, as a user's script would. The monitor records what we
sent and what the server answered; each server's own tools say what it shows.
"""
import json
import os
import subprocess
import sys
import time

from monitor import Record
from world import ServerFailed

COLUMNS = ["card shown", "replaced in place", "progress visible", "routine updates silent", "alert shown",
           "button works", "End removes the card"]
APPS = {"focus": "Focus", "fast": "Fasting", "tea": "Tea timer"}
ALERT_TITLE = "Halfway there"


def yes(why=""):
    return ("yes", why)


def no(why):
    return ("NO", why)


def na(why):
    return ("n/a", why)


def check(ok, good, bad):
    return yes(good) if ok else no(bad)



def shown_name(app_name):
    """An app name as a user reads it: without the zero-width spaces that give each card its own
    notification source on GNOME 43–47 (see ServerProfile.sourcePerCard)."""
    return app_name.replace("\u200b", "")

class Run:
    """One server's scenario: starts our daemon and the monitor in `world`, then `play()`."""

    def __init__(self, server, world, bins, repo, screenshot_path):
        self.server = server
        self.world = world
        self.bins = bins
        self.repo = repo
        self.screenshot_path = screenshot_path
        self.row = {}
        self.notes = []

    # --- plumbing -------------------------------------------------------------------------

    def start_daemon(self):
        self.record_path = self.world.file("monitor.jsonl")
        monitor = self.world.spawn("monitor", [sys.executable, os.path.join(os.path.dirname(__file__), "monitor.py"),
                                               self.world.session_address, self.record_path])
        deadline = time.time() + 10
        while time.time() < deadline and not self._monitor_ready():
            if monitor.poll() is not None:
                raise ServerFailed("the bus monitor did not start:\n" + self.world.log("monitor"))
            time.sleep(0.05)
        home = self.world.path("daemon")
        # The matrix checks what the cards show: a focus session must not turn the server's
        # Do Not Disturb on here (that is checked by DoNotDisturbTests and docs/focus-and-idle.md).
        config = "quiet-desktop = off\n" + (getattr(self.server, "daemon_config", None) or "")
        with open(self.world.file("daemon", "config", "liveactivities", "liveactivityd.conf"), "w") as f:
            f.write(config)
        self.daemon_env = self.world.env(HOME=home, XDG_STATE_HOME=os.path.join(home, "state"),
                                         XDG_CONFIG_HOME=os.path.join(home, "config"),
                                         XDG_DATA_HOME=os.path.join(home, "data"),
                                         LIVEACTIVITIES_KINDS_DIR=os.path.join(self.repo, "data", "kinds"))
        self.daemon = self.world.spawn("liveactivityd", [os.path.join(self.bins, "liveactivityd")], env=self.daemon_env)
        self.world.wait_for_name("io.github.liveactivities.LiveActivities1", process=self.daemon,
                                 process_name="liveactivityd")
        self.daemon_name = self.bus_call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                         "GetNameOwner", "s", ["io.github.liveactivities.LiveActivities1"])
        self.server_name = self.bus_call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                         "GetNameOwner", "s", ["org.freedesktop.Notifications"])

    def read_version(self):
        """What the server says (GetServerInformation) and the Debian package it came from."""
        info = self.bus_call("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                             "org.freedesktop.Notifications", "GetServerInformation")
        package = self.server.packages[0] if self.server.packages else None
        debian = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True,
                                text=True).stdout.strip() if package else ""
        self.version = f"{info[0]} {info[2]}" + (f" ({package} {debian})" if debian else "")

    def _monitor_ready(self):
        try:
            with open(self.record_path) as f:
                return '"ready"' in f.readline()
        except OSError:
            return False

    def bus(self):
        import dbus
        if not hasattr(self, "_bus"):
            self._bus = dbus.bus.BusConnection(self.world.session_address)
        return self._bus

    def bus_call(self, destination, path, interface, member, signature="", args=(), timeout=20):
        return self.bus().call_blocking(destination, path, interface, member, signature, list(args), timeout=timeout)

    def la(self, *args):
        result = subprocess.run([os.path.join(self.bins, "liveactivity"), *args], env=self.daemon_env,
                                capture_output=True, text=True, timeout=30)
        if result.returncode != 0:
            raise ServerFailed(f"liveactivity {' '.join(args)} failed ({result.returncode}): "
                               f"{result.stdout}{result.stderr}")
        return result.stdout.strip()

    def record(self):
        time.sleep(0.2)  # let the monitor write what it saw
        return Record(self.record_path)

    def notifies(self):
        return self.record().notifies(self.daemon.pid, self.server_name)

    def by_app(self, notifies):
        groups = {key: [] for key in APPS}
        for n in notifies:
            for key, app in APPS.items():
                if shown_name(n["app"]) == app:
                    groups[key].append(n)
        return groups

    def wait(self, condition, timeout=6, step=0.2):
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = condition()
            if value:
                return value
            time.sleep(step)
        return condition()

    # --- the scenario ---------------------------------------------------------------------

    def play(self):
        if getattr(self.server, "jobs", False):
            from scenario_jobs import play_jobs
            return play_jobs(self)
        server, world = self.server, self.world
        self.read_version()
        now = int(time.time())
        self.la("start", "focus", "session-type=Pomodoro", "task=Write the report", "--id", "focus")
        self.la("start", "fasting", "fasting-hours=16", f"start-time={now - 8 * 3600 + 120}", "--id", "fast")
        self.la("start", "generic", "title=Tea", "body=Green tea steeping", f"timer-start={now}",
                f"timer-end={now + 240}", "--id", "tea", "--app-name", APPS["tea"])
        self.visible = min(3, getattr(server, "max_visible", 3))
        shown = self.wait(lambda: sum(1 for g in self.by_app(self.notifies()).values() if g and g[0]["id"])
                          >= self.visible, timeout=8)
        first = self.by_app(self.notifies())
        self.ids = {key: (group[0]["id"] if group else None) for key, group in first.items()}
        time.sleep(1.5)
        self.check_card_shown(shown)

        # Routine updates: the fast extended three times, the tea timer ticking.
        mark = len(self.notifies())
        server.quiet_banners(world)
        screen_before = server.on_screen(world)
        for _ in range(3):
            self.la("extend", "fast", "5m")
            time.sleep(1.3)
        time.sleep(2.5)
        notifies = self.notifies()
        routine = notifies[mark:]
        self.check_routine(routine, screen_before)
        self.check_in_place(notifies)
        self.check_progress(notifies)

        # An alert.
        mark = len(self.notifies())
        self.la("update", "fast", "--alert-title", ALERT_TITLE, "--alert-body", "8 hours fasted",
                "--alert-sound", "message-new-instant")
        self.wait(lambda: any(n["summary"] == ALERT_TITLE and (n["id"] or n["error"])
                              for n in self.notifies()[mark:]), timeout=5)
        time.sleep(1.5)
        self.check_alert(self.notifies()[mark:])
        server.screenshot(world, self.screenshot_path)

        # A button, pressed on the server's side.
        self.check_button()

        # End.
        for key in APPS:
            self.la("end", key, "--dismissal", "immediate")
        time.sleep(2.5)
        self.check_end()
        self.server.after_end(self)
        self.check_log()
        return self.row

    # --- checks ---------------------------------------------------------------------------

    def server_cards(self):
        """Our cards as the server lists them (by notification id), or None when it cannot say."""
        cards = self.server.cards(self.world)
        if cards is None:
            return None
        ours = set(i for i in self.ids.values() if i)
        return [c for c in cards if c.get("id") in ours]

    def check_card_shown(self, shown):
        errors = [n for n in self.notifies() if n["error"]]
        if not shown:
            self.row["card shown"] = no("not every activity got a notification id: %s" % self.ids)
            return
        if self.visible < 3:
            count = self.server.on_screen(self.world)
            waiting = [k for k, i in self.ids.items() if not i]
            self.row["card shown"] = check(count == self.visible and len(waiting) == 3 - self.visible,
                                           f"{count} bubble (the server shows {self.visible} at a time; "
                                           f"{', '.join(waiting)} wait their turn)",
                                           f"{count} bubbles, waiting: {waiting}")
            return
        cards = self.server_cards()
        if cards is not None:
            apps = sorted(shown_name(c.get("app", "")) for c in cards)
            self.row["card shown"] = check(len(cards) == 3 and not errors,
                                           f"the server lists our 3 cards ({', '.join(apps)})",
                                           f"the server lists {len(cards)} of our cards: {cards}; errors {errors}")
            return
        count = self.server.on_screen(self.world)
        self.row["card shown"] = check(count == 3 and not errors, f"{count} bubbles on screen",
                                       f"{count} bubbles on screen for 3 cards; errors {[e['error'] for e in errors]}")

    def check_in_place(self, notifies):
        groups = self.by_app(notifies)
        problems = []
        for key, group in groups.items():
            if not group and self.visible < 3:
                continue
            ids = {n["id"] for n in group if n["id"]}
            if len(ids) != 1:
                problems.append(f"{key} got ids {sorted(ids)}")
            if any(n["replaces"] not in (0, self.ids[key]) for n in group) or \
                    any(n["replaces"] == 0 for n in group[1:]):
                problems.append(f"{key} was not always sent as a replace")
        updates = sum(len(g) - 1 for g in groups.values())
        cards = self.server_cards()
        count = len(cards) if cards is not None else self.server.on_screen(self.world)
        where = "the server lists" if cards is not None else "on screen:"
        if count != self.visible:
            problems.append(f"{where} {count} cards for 3 activities")
        self.row["replaced in place"] = check(not problems and updates > 0,
                                              f"{updates} replaces, same ids, {where} {count}",
                                              "; ".join(problems) or "no replaces were sent")

    def check_progress(self, notifies):
        groups = self.by_app(notifies)
        shown = groups["fast"] or groups["focus"] or groups["tea"]
        last = shown[-1] if shown else None
        if last is None:
            self.row["progress visible"] = no("no Notify at all")
            return
        verdict = self.server.progress(self, last)
        self.row["progress visible"] = verdict

    def check_routine(self, routine, screen_before):
        problems = []
        fast = [n for n in routine if shown_name(n["app"]) == APPS["fast"]]
        if len(fast) < 3 and self.visible == 3 or not routine:
            problems.append(f"only {len(fast)} routine updates of the fast reached the server")
        loud = [n for n in routine if "sound-name" in n["hints"]]
        if loud:
            problems.append(f"{len(loud)} routine updates carried a sound")
        errors = [n["error"] for n in routine if n["error"]]
        if errors:
            problems.append(f"refused: {sorted(set(errors))}")
        popped = self.server.banner_popped(self.world)
        if popped:
            problems.append(f"the server popped a banner again: {popped}")
        screen_after = self.server.on_screen(self.world)
        if screen_after != screen_before:
            problems.append(f"bubbles on screen went from {screen_before} to {screen_after}")
        urgencies = sorted({n["hints"].get("urgency") for n in routine})
        how = "banner stayed hidden" if popped is False else f"{screen_after} bubbles before and after"
        self.row["routine updates silent"] = check(not problems, f"{len(routine)} updates, urgency {urgencies}, "
                                                   f"no sound, {how}", "; ".join(problems))

    def check_alert(self, notifies):
        alert = [n for n in notifies if n["summary"] == ALERT_TITLE]
        if not alert:
            self.row["alert shown"] = no("the alert's Notify never went out")
            return
        n = alert[0]
        if self.visible < 3:
            record = self.record()
            senders = {x["sender"] for x in self.notifies()}
            closed = [m["args"][0] for m in record.calls("CloseNotification", "org.freedesktop.Notifications")
                      if m["sender"] in senders]
            count = self.server.on_screen(self.world)
            self.row["alert shown"] = check(n["id"] and count == self.visible and closed,
                                            f"the alert took the bubble (card {closed[-1] if closed else '?'} "
                                            f"gave way, the fast is {n['id']}), {count} on screen",
                                            f"alert id {n['id']}, closed {closed}, {count} on screen")
            return
        if n["error"] or n["id"] != self.ids["fast"]:
            self.row["alert shown"] = no(f"the server answered {n['error'] or n['id']}")
            return
        verdict = self.server.alert(self, n)
        if verdict is None:
            cards = self.server_cards()
            if cards is not None:
                titles = [c.get("summary") for c in cards]
                verdict = check(ALERT_TITLE in titles, f"the server lists \"{ALERT_TITLE}\"", f"the server lists {titles}")
            else:
                count = self.server.on_screen(self.world)
                verdict = check(count >= 1, f"accepted in place (id {n['id']}, sound {n['hints'].get('sound-name')}), "
                                f"{count} bubbles on screen", f"{count} bubbles on screen")
        self.row["alert shown"] = verdict

    def check_button(self):
        focus_id = self.ids["focus"]
        before = json.loads(self.la("get", "focus", "--json"))
        outcome, why = self.server.press(self.world, focus_id, "extend:300", "+5 min")
        if outcome is None:
            self.row["button works"] = na(why)
            return
        def pressed():
            record = self.record()
            server_side = [s for s in record.signals("ActionInvoked", self.server_name)
                           if s["args"][:2] == [focus_id, "extend:300"]]
            ours = [s for s in record.signals("ActionInvoked", self.daemon_name) if s["args"][0] == "focus"]
            return server_side and ours
        done = self.wait(pressed, timeout=6)
        after = json.loads(self.la("get", "focus", "--json"))
        moved = before.get("body") != after.get("body") or before.get("state") != after.get("state")
        self.row["button works"] = check(bool(done), f"{why}; the server sent ActionInvoked, focus +5 min",
                                         f"{why}; no ActionInvoked from the server for card {focus_id}")
        if done and not moved:
            self.notes.append("button: the focus card text did not change after +5 min")

    def check_end(self):
        if self.world.keep:
            self.server.screenshot(self.world, self.world.file("after-end.png"))
        record = self.record()
        notifies = self.notifies()
        senders = {n["sender"] for n in notifies}
        closes = [m["args"][0] for m in record.calls("CloseNotification", "org.freedesktop.Notifications")
                  if m["sender"] in senders]
        missing = sorted({n["id"] for n in notifies if n["id"]} - set(closes))
        cards = self.server_cards()
        left = len(cards) if cards is not None else self.server.on_screen(self.world)
        self.row["End removes the card"] = check(not missing and left == 0,
                                                 f"CloseNotification for every card, {left} left",
                                                 f"not closed: {missing}; {left} still shown")

    def check_log(self):
        log = self.world.log("liveactivityd", tail=500)
        excess = self.record().errors("ExcessNotificationGeneration")
        if excess or "ExcessNotificationGeneration" in log:
            self.row["routine updates silent"] = no(f"ExcessNotificationGeneration x{len(excess)}")
        warnings = [line for line in log.splitlines() if "warning" in line or "error" in line]
        if warnings:
            self.notes.append("daemon log: " + " | ".join(warnings[:5]))
