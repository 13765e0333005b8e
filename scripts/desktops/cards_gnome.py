"""Every live activity keeps its card in real GNOME Shell, and routine updates stay quiet:
GNOME 43 (host), 48 (trixie chroot) and 50 (forky chroot), with 8 live activities of one kind.

A hook on the shell's banner queue (`Main.messageTray._showNotification`, the one place that
shows a banner) records every banner with its urgency and sound; a hook on
`_updateShowingNotification` (the one place that plays a notification's sound: when a banner
shows, and again each time a Notify re-shows the banner still on screen) records every sound. Checks:
- 8 cards of one kind are all held by the shell (GNOME 43–47 keep 3 per source and destroy
  the oldest), each under the same notification id from start to end (no re-creation storm);
- two rounds of routine updates to all 8 re-show no banner and play no sound, read after the
  shell shows the updated titles (the event proving the updates arrived);
- an alert (Update with alert-title and alert-sound) shows its banner and plays its sound once,
  and the routine update after it shows no banner and plays no sound.
"""
import os
import time

from panel_gnome import PanelRun
from scenario import check, no
from servers_wayland import GnomeShell
from world import ServerFailed

COUNT = 8

#: Installs (once) the hooks that record each banner the shell shows and each sound it plays
#: for a notification; returns the banners.
BANNERS = """
const tray = Main.messageTray;
if (!tray._laBanners) {
  tray._laBanners = [];
  tray._laSounds = [];
  const soundOf = n => n.sound ? (n.sound._soundName || (n.sound._soundFile ? 'file' : null)) : (n._soundName || null);
  const show = tray._showNotification;
  tray._showNotification = function (...args) {
    const result = show.apply(this, args);
    const n = this._notification;
    if (n)
      tray._laBanners.push({ title: n.title, urgency: n.urgency, sound: soundOf(n) });
    return result;
  };
  const update = tray._updateShowingNotification;
  tray._updateShowingNotification = function (...args) {
    const n = this._notification;
    if (n && soundOf(n))
      tray._laSounds.push({ title: n.title, sound: soundOf(n) });
    return update.apply(this, args);
  };
}
return tray._laBanners;
"""
#: Every sound played for a notification since the last clear (BANNERS installs the hook).
SOUNDS = "return Main.messageTray._laSounds;"
CLEAR_BANNERS = "Main.messageTray._laBanners = []; Main.messageTray._laSounds = []; return true;"

#: Banners waiting in the shell's queue: each will be shown, so it counts as a banner.
QUEUED = "return Main.messageTray._notificationQueue.map(n => ({ title: n.title, urgency: n.urgency, queued: true }));"

#: One step of emptying the banner area: hide the banner shown, else show the next queued one
#: (with no user input GNOME neither hides a banner nor moves on by itself). True when empty.
DRAIN = """const t = Main.messageTray;
if (t._notificationState !== 0) t._expireNotification(); else if (t._notificationQueue.length) t._updateState();
return t._notificationState === 0 && t._notificationQueue.length === 0;"""

#: Our cards as the shell holds them: title, source title, and the daemon's notification id.
CARDS = """
const daemon = Main.notificationDaemon._fdoNotificationDaemon;
const ids = new Map();
const table = daemon._notifications;
const entries = table instanceof Map ? [...table.entries()] : Object.entries(table).map(([k, v]) => [k, v.notification]);
for (const [id, n] of entries) if (n) ids.set(n, Number(id));
return Main.messageTray.getSources().flatMap((s, index) => s.notifications.map(n => ({
  title: n.title, source: index, id: ids.get(n) ?? null, urgency: n.urgency })));
"""


class CardsRun(PanelRun):
    """The card checks; reuses PanelRun's plumbing (Eval, the daemon from a prefix, the CLI)."""

    def js(self, body):
        return self.shell.eval(self.world, "(() => JSON.stringify((() => {" + body + "})()))()")

    def banners(self):
        """Every banner shown since the last clear, and every one still waiting to be shown."""
        return self.js(BANNERS) + self.js(QUEUED)

    def sounds(self):
        """Every sound the shell played for a notification since the last clear."""
        return self.js(SOUNDS)

    def drain(self):
        """Shows and hides every waiting banner, then forgets them: the next read starts empty."""
        if not self.wait(lambda: self.js(DRAIN), timeout=15, step=0.4):
            raise ServerFailed(f"GNOME Shell's banners do not drain: {self.banners()}")
        self.js(CLEAR_BANNERS)

    def ours(self):
        return [c for c in self.js(CARDS) if c["title"].startswith("Card")]

    def play(self):
        self.start_daemon()
        self.js(BANNERS)
        self.drain()
        for index in range(1, COUNT + 1):
            self.la("start", "generic", f"title=Card{index}", "body=starting", "--id", f"card{index}")
        # The 8 Starts are out when the shell holds the last one; the cap destroys at once.
        self.wait(lambda: any(c["title"] == f"Card{COUNT}" for c in self.ours()), timeout=10)
        held = self.wait(lambda: (lambda o: o if len(o) == COUNT else None)(self.ours()), timeout=5) or self.ours()
        titles = sorted(c["title"] for c in held)
        ids = {c["title"]: c["id"] for c in held}
        sources = len({c["source"] for c in held})
        self.add(f"{COUNT} live cards of one kind all kept", check(len(held) == COUNT,
                 f"the shell holds {', '.join(titles)}", f"the shell holds only {titles}"))
        start_banners = self.banners()
        self.drain()
        start_banners += self.js(BANNERS)  # those that waited, shown while draining
        self.js(CLEAR_BANNERS)
        repeated = [t for t in {b["title"] for b in start_banners} if [b["title"] for b in start_banners].count(t) > 1]
        self.add("a Start shows its banner at most once", check(not repeated,
                 f"{len(start_banners)} Start banners (GNOME queues at most 3), none twice", f"twice: {repeated}"))

        for round_ in (1, 2):
            time.sleep(1.1)  # the daemon sends at most one Notify per card per second
            for index in range(1, COUNT + 1):
                self.la("update", f"card{index}", f"title=Card{index} r{round_}", f"body=routine update {round_}")
            seen = self.wait(lambda: (lambda o: o if len(o) == COUNT and all(c["title"].endswith(f" r{round_}")
                                                                            for c in o) else None)(self.ours()),
                             timeout=10)
            if not seen:
                self.add("routine updates: no banner, no sound", no(f"round {round_} not shown: {self.ours()}"))
                return self.rows
        banners = self.banners() + self.sounds()
        same_ids = all(ids.get(c["title"].split(" ")[0]) == c["id"] for c in self.ours())
        self.add("routine updates: no banner, no sound", check(not banners,
                 f"2 rounds × {COUNT} updates shown in place, 0 banners", f"banners {banners}"))
        self.add("each card keeps its notification id", check(same_ids and len(self.ours()) == COUNT,
                 f"{COUNT} ids unchanged from Start to the last update; sources: {sources}",
                 f"at start {ids}, now {[(c['title'], c['id']) for c in self.ours()]}"))

        self.la("update", "card3", "title=Card3 alert", "--alert-title", "Card3 needs you", "--alert-sound", "bell")
        alerted = self.wait(lambda: [b for b in self.js(BANNERS) if b["title"].startswith("Card3")], timeout=5)
        # On 46+ the alert goes out at normal urgency and at once again at low (the shell judges
        # a replace by the urgency before it). Wait until the shell holds that low one
        # (MessageTray.Urgency.LOW is 0), as it does within the banner's seconds on a desktop,
        # before the banner is hidden here; on 43 the alert is one Notify.
        version = self.shell.shell_version(self.world) if hasattr(self.shell, "shell_version") else "43"
        settled = int(str(version).split(".")[0]) < 46 or self.wait(
            lambda: any(c["title"].startswith("Card3") and c["urgency"] == 0 for c in self.ours()), timeout=5)
        others = [b for b in self.banners() if not b["title"].startswith("Card3")]
        sounds = self.sounds()
        self.add("an alert shows its banner and sound", check(
            alerted and len(alerted) == 1 and not others and [s["sound"] for s in sounds] == ["bell"] and settled,
            f"one banner \"{alerted[0]['title'] if alerted else ''}\", sound {sounds[0]['sound'] if sounds else ''} once",
            f"banners {alerted}, others {others}, sounds {sounds}, low follow-up held: {bool(settled)}"))
        self.drain()
        time.sleep(1.1)
        self.la("update", "card3", "title=Card3 after", "body=routine after the alert")
        self.wait(lambda: any(c["title"] == "Card3 after" for c in self.ours()), timeout=5)
        after = self.banners() + self.sounds()
        self.add("the routine update after an alert: no banner", check(not after, "0 banners, 0 sounds",
                 f"banners and sounds {after}"))
        return self.rows


class GnomeCards(GnomeShell):
    """The card checks on the host's GNOME Shell (43 on Debian 12)."""
    name = "gnome-cards"
    packages = ["gnome-shell", "gjs", "make"]

    def play_panel(self, world, bins, repo, shots):
        run = CardsRun(self, world, bins, repo, shots)
        run.install()
        self.start(world)
        return run.play()


def rows():
    """The matrix rows of this module: GNOME 43 on the host, 48 and 50 in their chroots."""
    from panel_gnome_chroot import ChrootGnomeShell

    class GnomeCardsChroot(ChrootGnomeShell, GnomeCards):
        """The card checks on GNOME Shell 45+ inside a cached chroot."""
        def __init__(self, name, suite):
            self.name, self.suite = name, suite

    return [GnomeCards(), GnomeCardsChroot("gnome48-cards", "trixie"), GnomeCardsChroot("gnome50-cards", "forky")]
