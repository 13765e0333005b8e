"""Segments and scheduled starts as a Plasma user sees them (issue 21), for the plasma rows: the
applet's popup draws a fast as a segmented bar (read back from the screen: OCR finds the segment
text, and the pixel row just above it holds two tracks, 2:1 for 16 h + 8 h, with a gap), and a
focus session scheduled a few seconds ahead stays pending, then starts by itself with its alert
card (OCR of the notification popup). Screenshots <name>-segments.png and <name>-scheduled.png.
"""
import subprocess
import time

from plasma_panel import ocr_words, shows, text_of
from scenario import check, no


def pixels(world, crop):
    """The RGB pixels of the screen area `crop` = (w, h, x, y), row by row."""
    shot = world.file("ocr", "bar.png")
    subprocess.run(["import", "-window", "root", "-crop", "%dx%d+%d+%d" % crop, "+repage", shot], env=world.env(),
                   check=True, timeout=30)
    raw = subprocess.run(["convert", shot, "-depth", "8", "rgb:-"], capture_output=True, check=True, timeout=30).stdout
    width = crop[0]
    return [[tuple(raw[(r * width + c) * 3:(r * width + c) * 3 + 3]) for c in range(width)] for r in range(crop[1])]


def most_common(rows):
    """The most common colour of an area: the popup's background."""
    counts = {}
    for row in rows:
        for p in row:
            counts[p] = counts.get(p, 0) + 1
    return max(counts, key=counts.get)


def runs(row, background):
    """The runs of pixels that differ from `background`: [(start, length)], runs closer than 2 px
    merged (anti-aliasing). A track's fill and its unfilled rest make one run."""
    marked = [sum(abs(a - b) for a, b in zip(p, background)) > 24 for p in row]
    found = []
    for i, on in enumerate(marked):
        if on and found and i - (found[-1][0] + found[-1][1]) <= 1:
            found[-1] = (found[-1][0], i - found[-1][0] + 1)
        elif on:
            found.append((i, 1))
    return found


def bar_tracks(world, words, anchor):
    """The tracks of the segmented bar drawn just above the OCR line holding `anchor`: in the
    pixel rows within 40 px above it, the widest pair of neighbouring runs (each over 20 px) with
    a gap of 1 to 6 px between them (what lies further right, past the popup's edge, is ignored)."""
    line = [w for w in words if anchor in w["text"].lower()]
    if not line:
        return None
    word = line[0]
    left = int(min(w["left"] for w in words if w["line"] == word["line"])) - 12
    crop = (480, 40, max(0, left), max(0, int(word["y"]) - 46))
    best = None
    area = pixels(world, crop)
    background = most_common(area)
    for row in area:
        found = [r for r in runs(row, background) if r[1] > 20]
        for a, b in zip(found, found[1:]):
            gap = b[0] - a[0] - a[1]
            if 1 <= gap <= 6 and (best is None or a[1] + b[1] > best[0][1] + best[1][1]):
                best = [a, b]
    return best


def check_segments(world, popup_area, shot):
    """The fast's row: its segment text, and two tracks 2:1 apart by a gap."""
    words = ocr_words(world, popup_area, "popup-segments")
    # The popup only (its text starts a few pixels in from its edge), not the wallpaper beside it.
    anchor = next((w for w in words if w["text"].lower() == "then"), None)
    left = int(min((w["left"] for w in words if anchor and w["line"] == anchor["line"]), default=popup_area[2] + 8)) - 8
    top = int(min((w["y"] for w in words if w["left"] >= left), default=popup_area[3] + 24)) - 24
    bottom = popup_area[1] + popup_area[3]
    tight = (min(430, popup_area[0] + popup_area[2] - left), max(1, bottom - max(top, popup_area[3])),
             left, max(top, popup_area[3]))
    subprocess.run(["import", "-window", "root", "-crop", "%dx%d+%d+%d" % tight, "+repage", shot], env=world.env(),
                   check=True, timeout=30)
    if not shows(words, "then Eating window"):
        return no(f"no segment text 'Fasting … then Eating window 8h' in the popup; OCR: {text_of(words)!r}")
    tracks = bar_tracks(world, words, "then")
    ok = tracks and len(tracks) == 2 and 1.8 < tracks[0][1] / tracks[1][1] < 2.2
    text = " ".join(w["text"] for w in words if w["line"] == next(w for w in words if w["text"].lower() == "then")["line"])
    return check(ok, f"OCR reads {text!r}; above it two tracks of {tracks[0][1]} and {tracks[1][1]} px "
                     f"(16 h : 8 h) with a {tracks[1][0] - tracks[0][0] - tracks[0][1]} px gap" if ok else "",
                 f"tracks {tracks} above {text!r}")


def check_scheduled(run, cards_area, shot):
    """`--at` 6 s ahead: pending at once, active by itself, its start alert on screen."""
    run.la("start", "focus", "session-type=Deep Work", "task=Review", "--id", "later", "--at", str(int(time.time()) + 6))
    import json
    pending = json.loads(run.la("get", "later", "--json")).get("status")
    active = run.wait(lambda: json.loads(run.la("get", "later", "--json")).get("status") == "active", timeout=15, step=0.3)
    words = run.wait(lambda: (lambda ws: ws if shows(ws, "Started") and shows(ws, "Deep Work") else None)(
        ocr_words(run.world, cards_area, "scheduled")), timeout=10, step=1) or ocr_words(run.world, cards_area, "scheduled")
    subprocess.run(["import", "-window", "root", "-crop", "%dx%d+%d+%d" % cards_area, "+repage", shot],
                   env=run.world.env(), check=True, timeout=30)
    run.la("end", "later", "--reason", "cancelled", "--dismissal", "immediate")
    return check(pending == "pending" and active and shows(words, "Started"),
                 f"pending, then active by itself; its alert card reads {text_of(words)!r}",
                 f"status at start {pending}, active {active}; OCR of the cards: {text_of(words)!r}")
