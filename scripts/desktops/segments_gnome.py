"""Segments and scheduled starts in the GNOME island's menu (issue 21), for the gnome-panel rows
(43 on the host, 48 and 50 in chroots): a 16:8 fast draws two tracks whose widths follow
16 h + 8 h, its fasting track filled as far as the fast has come, and one point mark (the
eating window's start) in the gap between them; a focus session scheduled a
few seconds ahead is pending (no row) and then becomes active by itself with its bar. Read back
from the shell with Eval; screenshots docs/screenshots/<prefix>-segments.png and
<prefix>-scheduled.png.
"""
import time

import panel_gnome_js as js
from scenario import check

SEGMENT_GAP = 3  # px between two tracks (data/gnome-shell/shared/rows.js)


def clear_banners(run):
    """Drops the shell's own start-up notices (43: "System Information", 48+: "System") and hides
    any banner, so the screenshots show our menu and our own alert."""
    run.js("imports.ui.main.messageTray.getSources().filter(s => ['System Information', 'System'].includes(s.title))"
           ".forEach(s => s.destroy()); return true;")
    run.shell.quiet_banners(run.world)


def banner_title(run):
    """The title of the banner on screen, or None."""
    return run.js("const t = imports.ui.main.messageTray; return t._notificationState !== 0 && t._notification "
                  "? t._notification.title : null;")


def show_only(run, title):
    """True once the banner on screen is `title`'s; expires any other banner showing before it
    (GNOME shows one banner at a time, and with no user input keeps each up)."""
    shown = banner_title(run)
    if shown == title:
        return True
    if shown:
        run.js("imports.ui.main.messageTray._expireNotification(); return true;")
    return False


def sections(run):
    menu = run.js(js.MENU)
    return (menu or {}).get("sections", []), menu


def check_segments(run):
    """A fast started 12 h ago: tracks 2:1, the fasting one current and three quarters full."""
    clear_banners(run)
    run.la("start", "fasting", "protocol=16:8", f"start-time={int(time.time()) - 12 * 3600}", "--id", "fast",
           "--relevance", "10")
    title = str(run.get("fast")["title"])

    def drawn():
        found = next((s for s in sections(run)[0] if s["texts"] and s["texts"][0] == title and s["segments"]), None)
        return found
    section = run.wait(drawn, timeout=5)
    tracks = (section or {}).get("segments") or []
    widths = [t["width"] for t in tracks]
    states = [next((c.split("-")[-1] for c in (t["classes"] or "").split() if c.startswith("liveactivities-segment-")), "")
              for t in tracks]
    fill = tracks[0]["fill"] / tracks[0]["width"] if tracks and tracks[0]["width"] else 0
    text = str(run.get("fast")["segment-text"])
    ok = len(tracks) == 2 and abs(widths[0] / max(widths[1], 1) - 2) < 0.05 and states == ["current", "upcoming"] \
        and abs(fill - 0.75) < 0.02 and text in (section or {}).get("texts", [])
    run.add("menu draws a 16:8 fast as a segmented bar", check(
        ok, f"2 tracks {widths[0]:.0f}+{widths[1]:.0f} px ({[t['label'] for t in tracks]}), {'/'.join(states)}, "
            f"fasting {fill:.0%} filled; \"{text}\"" if ok else "",
        f"section {section}, states {states}, segment text {text!r}"))
    # The fast's one point (the eating window opens at 16 h) is a mark in the gap between the tracks.
    marks = (section or {}).get("points") or []
    gap_at = tracks[0]["width"] + SEGMENT_GAP / 2 if len(tracks) == 2 else None  # the first track starts at 0
    marks_ok = len(marks) == 1 and gap_at is not None and abs(marks[0]["center"] - gap_at) <= 1 \
        and marks[0]["label"] == "Eating window"
    run.add("menu marks the fast's point on its bar", check(
        marks_ok, f"1 point mark, \"{marks[0]['label']}\", centred at {marks[0]['center']:.1f} px, "
                  f"in the gap between the tracks ({gap_at:.1f} px)" if marks_ok else "",
        f"marks {marks}, gap at {gap_at}, tracks {tracks}"))
    menu = sections(run)[1]
    if menu:
        island = run.island()
        left = max(0, min(menu["x"], island["x"] - 420))
        run.screenshot(f"{run.shot_prefix}-segments.png", left, 0, 1280 - left, menu["y"] + menu["height"] + 8)
    run.js(js.CLOSE_MENU)
    run.la("end", "fast")


def check_scheduled(run):
    """A focus session with `--at` 6 s ahead: pending (no row, not in the label), then a row with
    its bar, and its start's alert as a banner."""
    clear_banners(run)
    run.la("start", "focus", "session-type=Deep Work", "task=Review", "--id", "later", "--relevance", "20",
           "--at", str(int(time.time()) + 6))
    status = str(run.get("later")["status"])
    listed = any("Deep Work" in " ".join(s["texts"]) for s in sections(run)[0])
    run.js(js.CLOSE_MENU)
    pending_ok = status == "pending" and not listed and "Deep Work" not in (run.label() or "")
    became = run.wait(lambda: str(run.get("later")["status"]) == "active", timeout=15, step=0.2)
    section = run.wait(lambda: next((s for s in sections(run)[0] if s["texts"] and s["texts"][0].startswith("Deep Work")
                                     and s["progress"] is not None), None), timeout=5)
    run.add("scheduled start: pending, then active with its bar", check(
        pending_ok and became and section,
        f"pending with no row, then active by itself: \"{section['texts'][0]}\" with its progress bar"
        if pending_ok and became and section else "",
        f"status at start {status}, listed while pending {listed}, active {became}, section {section}"))
    alert = run.wait(lambda: show_only(run, "Focus"), timeout=10, step=0.5)  # the start's alert, as a banner
    run.add("scheduled start: its banner", check(
        alert, "the start's alert is the banner on screen (title \"Focus\")",
        f"no banner titled 'Focus' within 10 s of the start; on screen: {banner_title(run)!r}"))
    menu = sections(run)[1]
    if menu:
        run.screenshot(f"{run.shot_prefix}-scheduled.png", 0, 0, 1280, max(menu["y"] + menu["height"] + 8, 200))
    run.js(js.CLOSE_MENU)
    run.la("end", "later", "--reason", "cancelled")
