"""The lock screen in real GNOME Shell (43 on the host, 48 and 50 in the chroots): issue 26.

The shell is made lockable by a GDM stand-in (gdm_standin.py, started by GnomeShell when
`lockable`) and locked the way GNOME locks itself, `Main.screenShield.lock(false)`; then
everything is read back from the shell through Eval, as a user would read it: the visible
labels of `Main.layoutManager.screenShieldGroup`, our column's rows, the top bar. Checked: each
live activity's title, body and time, most relevant first, up to 3 then "+N more"; an Update
and a daemon tick followed while locked; no button there and no island in the top bar; GNOME's
`show-in-lock-screen = false` and the daemon's `lock-screen = private` respected; 20 locks and
unlocks leaving no actor or handler behind, with the island back after each.
"""
import re
import time

import panel_gnome_js as js
from scenario import check

#: What the lock screen shows: the session mode, our column (each visible row's texts, buttons and
#: bar), its "+N more", every visible label of the lock screen, and the top bar's island.
LOCK = js.WALK + """
const views = [];
const find = actor => {
  for (const child of actor.get_children()) {
    if (child.has_style_class_name && child.has_style_class_name('liveactivities-lockscreen')) views.push(child);
    else find(child);
  }
};
find(imports.ui.main.layoutManager.screenShieldGroup);
const view = views.find(v => v.visible) || null;
const rows = view ? view.get_children().filter(c => c.visible && c.has_style_class_name('liveactivities-lock-row'))
  .map(row => read(row)) : [];
const more = view ? view.get_children().find(c => c.visible && c.has_style_class_name('liveactivities-lock-more')) : null;
const button = imports.ui.main.panel.statusArea['liveactivities'];
const shield = imports.ui.main.screenShield;
const shieldGroup = imports.ui.main.layoutManager.screenShieldGroup;
const dark = !!shield && (shield._shortLightbox.visible || shield._longLightbox.visible);
return { mode: imports.ui.main.sessionMode.currentMode, views: views.length, rows, more: more ? more.text : '', dark,
         screen: shieldGroup.visible ? read(shieldGroup).texts : [],
         buttons: view ? read(view).buttons : [],
         island: !!button && button.visible && button.container.visible };
"""

#: A user's pointer moving (a virtual pointer of the shell's own seat): GNOME fades the screen to
#: black when it locks and shows the lock screen again at the first input, as here.
WAKE = """
const Clutter = imports.gi.Clutter;
if (!globalThis.liveActivitiesTestPointer)
  globalThis.liveActivitiesTestPointer = Clutter.get_default_backend().get_default_seat()
    .create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
globalThis.liveActivitiesTestPointer.notify_relative_motion(imports.gi.GLib.get_monotonic_time(), 3, 2);
return true;
"""

#: GNOME 49+'s media cards on the lock screen (`MediaMessage`, one per MPRIS player that can play):
#: the visible texts of each.
MEDIA = js.WALK + """
const cards = [];
const find = actor => {
  for (const child of actor.get_children()) {
    if (child.constructor.name === 'MediaMessage') { if (child.visible) cards.push(read(child).texts); }
    else find(child);
  }
};
find(imports.ui.main.layoutManager.screenShieldGroup);
return cards;
"""

LOCK_NOW = "imports.ui.main.screenShield.lock(false); return imports.ui.main.sessionMode.currentMode;"
UNLOCK_NOW = "imports.ui.main.screenShield.deactivate(false); return imports.ui.main.sessionMode.currentMode;"
MODE = "return imports.ui.main.sessionMode.currentMode;"
#: Unlocked and done: the unlock dialog destroyed at the end of GNOME's slide-up.
UNLOCKED = "return imports.ui.main.sessionMode.currentMode === 'user' && !imports.ui.main.screenShield._dialog;"
SHIELD = "return !!imports.ui.main.screenShield;"
PRIVACY = ("new imports.gi.Gio.Settings({ schema_id: 'org.gnome.desktop.notifications' })"
           ".set_boolean('show-in-lock-screen', %s); return true;")

#: What could leak from one lock to the next: our lock-screen actors anywhere on stage, the
#: handlers on the session mode (a JS signal emitter), the actors of our button and its menu;
#: and, for the report, every actor on stage by kind (GNOME's own count moves by ±150 between
#: two unlocked moments with nothing of ours changing, so it is shown, not compared).
LEAKS = """
let ours = 0, all = 0;
const kinds = {};
const walk = actor => {
  for (const child of actor.get_children()) {
    all++;
    const name = child.get_style_class_name ? child.get_style_class_name() || '' : '';
    const kind = `${child.constructor.name}.${name}`;
    kinds[kind] = (kinds[kind] || 0) + 1;
    if (name.split(/\\s+/).some(c => c.startsWith('liveactivities-lock'))) ours++;
    walk(child);
  }
};
walk(global.stage);
// GJS keeps a JS emitter's handlers in `_signalConnections`: an array (43), an object by id (48+).
const connections = imports.ui.main.sessionMode._signalConnections;
const handlers = Array.isArray(connections) ? connections.length : connections ? Object.keys(connections).length : -1;
const button = imports.ui.main.panel.statusArea['liveactivities'];
let island = 0;
const count = actor => { for (const child of actor.get_children()) { island++; count(child); } };
if (button) { count(button); count(button.menu.actor); }
return { ours, all, handlers, kinds, island };
"""


def expected_rows(run, ids, keys=("title", "compact-trailing", "body")):
    """Each activity's texts as a row shows them (title, time, body; empty ones left out),
    from the daemon, most relevant first."""
    rows = []
    for activity in ids:
        props = run.get(activity)
        rows.append([str(props[key]) for key in keys if str(props[key])])
    return rows


def lock(run):
    run.js(LOCK_NOW)
    return run.wait(lambda: run.js(MODE) == "unlock-dialog" and (lambda s: s if s["views"] else None)(run.js(LOCK)),
                    timeout=10, step=0.1)


def wake(run):
    """Moves the pointer until the lock screen is lit (no black lightbox over it)."""
    def lit():
        run.js(WAKE)
        return run.wait(lambda: not run.js(LOCK)["dark"], timeout=1, step=0.1)
    return run.wait(lit, timeout=8, step=0.1)


def unlock(run):
    run.js(UNLOCK_NOW)
    return run.wait(lambda: run.js(UNLOCKED) and not run.js(LOCK)["views"], timeout=10, step=0.1)


def check_lock_screen(run, live_ids, ticking):
    """Locks the shell with the activities `live_ids` live (most relevant first; those past the
    third are shown only as "+N more"), `ticking` among them counting by the second, and runs
    every lock-screen check."""
    if not run.js(SHIELD):
        run.add("lock screen: the shell can lock", ("no", "Main.screenShield is null: canLock() refused "
                                                    f"(GDM stand-in log: {run.world.log('gdm-standin')})"))
        return
    state = lock(run)
    run.add("lock screen: the shell locks", check(state, "Main.screenShield.lock(false) → unlock-dialog, our column "
                                                         "in the unlock dialog", f"mode {run.js(MODE)}, {run.js(LOCK)}"))
    if not state:
        return
    lit = wake(run)
    run.add("lock screen: lit at the first input", check(lit, "a pointer move lifts GNOME's black lightbox",
                                                         f"still dark: {run.js(LOCK)}"))
    check_rows(run, live_ids)
    check_follows(run, live_ids, ticking)
    check_privacy(run, live_ids)
    version = str(run.shell.bus(run.world).call_blocking("org.gnome.Shell", "/org/gnome/Shell",
                  "org.freedesktop.DBus.Properties", "Get", "ss", ["org.gnome.Shell", "ShellVersion"], timeout=20))
    if int(version.split(".")[0]) >= 49:
        check_media_card(run)
    unlocked = unlock(run)
    back = unlocked and run.wait(lambda: run.label() == run.compact() and run.label(), timeout=5)
    run.add("lock screen: unlock brings the island back", check(back, f"user mode, island \"{back}\"",
                                                                 f"unlocked {unlocked}, island {run.island()}"))
    check_cycles(run)


def check_rows(run, live_ids):
    total = len(live_ids)
    wanted_more = f"+{total - 3} more" if total > 3 else ""
    state = {}

    def matches():
        lock_state = run.js(LOCK)
        wanted = expected_rows(run, live_ids[:3])
        got = [r["texts"] for r in lock_state["rows"]]
        state.update(lock_state=lock_state, wanted=wanted, got=got)
        return got == wanted and lock_state["more"] == wanted_more
    ok = run.wait(matches, timeout=4, step=0.2)
    lock_state, wanted, got = state["lock_state"], state["wanted"], state["got"]
    bars = [r["progress"] is not None for r in lock_state["rows"]]
    run.add("lock screen: title, time and body of each, most relevant first",
            check(ok and all(bars), "; ".join(" / ".join(t for t in g if t) for g in got)
                  + (f"; \"{lock_state['more']}\"" if lock_state["more"] else "") + "; each with its bar",
                  f"shown {got} more {lock_state['more']!r} bars {bars}, wanted {wanted} more {wanted_more!r}; "
                  f"screen {lock_state['screen']}"))
    clean = not lock_state["buttons"] and not lock_state["island"]
    run.add("lock screen: no button, no top-bar island", check(clean, "no St.Button in our column; island hidden",
                                                               f"buttons {lock_state['buttons']}, island "
                                                               f"{lock_state['island']}"))
    if ok:
        run.lock_screenshot()


def check_follows(run, live_ids, ticking):
    first = live_ids[0]
    title = str(run.get(first)["title"])
    begun = time.time()
    run.call("Update", "sa{sv}a{sv}", [first, {"title": title + " (locked)"}, {}])
    followed = run.wait(lambda: any(r["texts"] and r["texts"][0] == title + " (locked)" for r in run.js(LOCK)["rows"]),
                        timeout=3, step=0.05)
    took = time.time() - begun
    run.add("lock screen: follows an Update while locked", check(followed and took < 1.0, f"{took * 1000:.0f} ms from "
                                                                 "the Update call", f"{run.js(LOCK)['rows']}"))
    run.call("Update", "sa{sv}a{sv}", [first, {"title": title}, {}])
    # A running timer (the focus session counts down by the second) ticks on the lock screen.
    index = live_ids.index(ticking)

    def time_of():
        rows = run.js(LOCK)["rows"]
        return rows[index]["texts"][1] if len(rows) > index and len(rows[index]["texts"]) > 1 else None
    before = time_of()
    ticked = run.wait(lambda: (lambda t: t if t and t != before and t == str(run.get(ticking)["compact-trailing"])
                               else None)(time_of()), timeout=5, step=0.2)
    run.add("lock screen: follows a daemon tick while locked", check(ticked, f"{ticking}: \"{before}\" → \"{ticked}\"",
                                                                     f"stayed {before!r}; daemon "
                                                                     f"{run.get(ticking)['compact-trailing']}"))


def check_privacy(run, live_ids):
    run.js(PRIVACY % "false")
    hidden = run.wait(lambda: (lambda s: not s["rows"] and not s["more"] and s)(run.js(LOCK)), timeout=3)
    run.js(PRIVACY % "true")
    again = run.wait(lambda: len(run.js(LOCK)["rows"]) == min(3, len(live_ids)), timeout=3)
    titles = [str(run.get(a)["title"]) for a in live_ids]
    leaked = [t for t in titles if hidden and any(t in text for text in hidden["screen"])]
    run.add("lock screen: GNOME's show-in-lock-screen=false hides all", check(hidden and not leaked and again,
            "no row, no title anywhere on the lock screen; back when true", f"hidden {hidden}, leaked {leaked}, "
            f"back {again}"))

    run.stop_daemon()
    run.daemon_config = "lock-screen = private\n"
    run.start_daemon()
    state = {}

    def private():
        rows = run.js(LOCK)["rows"]
        wanted = expected_rows(run, live_ids[:3], keys=("kind-name", "compact-trailing"))
        got = [r["texts"] for r in rows]
        state.update(got=got, wanted=wanted)
        return got == wanted and all(r["progress"] is not None for r in rows)
    ok = run.wait(private, timeout=6, step=0.2)
    screen = run.js(LOCK)["screen"]
    leaked = [t for t in titles if any(t in text for text in screen)]
    run.add("lock screen: lock-screen = private shows kind, time, bar", check(ok and not leaked,
            "; ".join(" / ".join(g) for g in state["got"]) + "; no title or body", f"shown {state['got']}, wanted "
            f"{state['wanted']}, leaked {leaked}"))
    run.stop_daemon()
    run.daemon_config = ""
    run.start_daemon()
    run.wait(lambda: len(run.js(LOCK)["rows"]) == min(3, len(live_ids)), timeout=6)


def check_media_card(run):
    """GNOME 49+ shows each MPRIS player that can play as a media card on the lock screen: ours,
    the most relevant timer (its title, and the by-the-minute line as the artist)."""
    player = "org.mpris.MediaPlayer2.liveactivities"
    bus = run.shell.bus(run.world)
    try:
        metadata = bus.call_blocking(player, "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties", "Get", "ss",
                                     ["org.mpris.MediaPlayer2.Player", "Metadata"], timeout=10)
        title = str(metadata.get("xesam:title", ""))
    except Exception as error:  # noqa: BLE001 - no player is the verdict, not a crash of the row
        run.add("lock screen: GNOME's media card shows our player", ("no", f"our MPRIS player: {error}"))
        return
    cards = run.wait(lambda: (lambda c: c if any(title in " ".join(t) for t in c) else None)(run.js(MEDIA)), timeout=5)
    run.add("lock screen: GNOME's media card shows our player", check(cards and title, f"\"{title}\": "
            + "; ".join(" / ".join(t) for t in (cards or [])), f"player title {title!r}, media cards {run.js(MEDIA)}"))


def check_cycles(run, cycles=20):
    """Locks and unlocks `cycles` times: the island back after each, and nothing left behind."""
    first = None
    failures = []
    for n in range(cycles):
        if not lock(run):
            failures.append(f"lock {n + 1}: mode {run.js(MODE)}")
            break
        if not run.wait(lambda: run.js(LOCK)["rows"], timeout=3):
            failures.append(f"lock {n + 1}: no row")
        if not unlock(run):
            failures.append(f"unlock {n + 1}: mode {run.js(MODE)}")
            break
        if not run.wait(lambda: run.label() == run.compact() and run.label(), timeout=5):
            failures.append(f"unlock {n + 1}: island {run.island()}, CompactText {run.compact()!r}")
        if n == 0:
            first = run.js(LEAKS)
    last = run.js(LEAKS)
    log = run.world.log("gnome-shell", tail=100000).splitlines()
    mentions = [line for line in log if run.uuid in line or "Live Activities:" in line
                or re.search(r"(?i)(island|lockscreen)\.js", line)]
    clean = first and last["ours"] == 0 and last["handlers"] == first["handlers"] > 0 and last["island"] == first["island"]
    run.add(f"lock screen: {cycles} locks and unlocks leave nothing", check(
        not failures and clean and not mentions,
        f"island back after each; no lock actor left; session-mode handlers {last['handlers']} and the island's "
        f"{last['island']} actors as after the first; no log line (the whole stage: {first and first['all']} "
        f"actors after the first, {last['all']} after the last)", f"failures {failures}, grown {grown(first, last)}, first {first and first['all']}, last "
        f"{last['all']}, handlers {first and first['handlers']} → {last['handlers']}, log {mentions[-10:]}"))


def grown(first, last):
    """The kinds of actor there are more of after the last cycle than after the first."""
    if not first:
        return {}
    return {k: (first["kinds"].get(k, 0), n) for k, n in last["kinds"].items() if n > first["kinds"].get(k, 0)}

