"""Segments and scheduled starts as a Plasma user sees them (issue 21), for the plasma rows: the
applet's popup draws a fast as a segmented bar (read back from the screen: OCR finds the segment
text, and the pixel row just above it holds two tracks, 2:1 for 16 h + 8 h, with a gap, and the
rows under the bar one point mark, under the gap: the eating window's start), and a
focus session scheduled a few seconds ahead stays pending, then starts by itself with its alert
card (OCR of the notification popup). Screenshots <name>-segments.png and <name>-scheduled.png.
"""
import shutil
import subprocess
import time

from plasma_panel import grab, ocr_words, read_words, shows, text_of
from scenario import check, no


def pixels(world, crop):
    """The RGB pixels of the screen area `crop` = (w, h, x, y), row by row."""
    shot = world.file("ocr", "bar.png")
    subprocess.run(["import", "-window", "root", "-crop", "%dx%d+%d+%d" % crop, "+repage", shot], env=world.env(),
                   check=True, timeout=30)
    raw = subprocess.run(["convert", shot, "-depth", "8", "rgb:-"], capture_output=True, check=True, timeout=30).stdout
    # The grab is smaller than `crop` where the crop passes the screen's edge: use its own size.
    size = subprocess.run(["identify", "-format", "%w %h", shot], capture_output=True, text=True, check=True,
                          timeout=30).stdout.split()
    width, height = int(size[0]), int(size[1])
    return [[tuple(raw[(r * width + c) * 3:(r * width + c) * 3 + 3]) for c in range(width)] for r in range(height)]


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
    a gap of 1 to 6 px between them (what lies further right, past the popup's edge, is ignored).
    Returns (tracks, marks): the two runs, and the point marks under the bar (see bar_marks)."""
    line = [w for w in words if anchor in w["text"].lower()]
    if not line:
        return None, []
    word = line[0]
    left = int(min(w["left"] for w in words if w["line"] == word["line"])) - 12
    crop = (480, 40, max(0, left), max(0, int(word["y"]) - 46))
    best = None
    last_row = None
    area = pixels(world, crop)
    background = most_common(area)
    for index, row in enumerate(area):
        found = [r for r in runs(row, background) if r[1] > 20]
        for a, b in zip(found, found[1:]):
            gap = b[0] - a[0] - a[1]
            if 1 <= gap <= 6 and (best is None or a[1] + b[1] >= best[0][1] + best[1][1]):
                if best is None or a[1] + b[1] > best[0][1] + best[1][1]:
                    best = [a, b]
                last_row = index
    return best, bar_marks(area, background, last_row, best)


def bar_marks(area, background, last_row, tracks):
    """The point marks under the bar: in the 7 pixel rows below its last row, the short runs
    (1 to 8 px) within the bar's extent, merged by column; returns each mark's centre."""
    if last_row is None or not tracks:
        return []
    start, end = tracks[0][0] - 4, tracks[1][0] + tracks[1][1] + 4
    columns = set()
    for row in area[last_row + 1:last_row + 8]:
        for run_start, length in runs(row, background):
            if length <= 8 and start <= run_start and run_start + length <= end:
                columns.update(range(run_start, run_start + length))
    marks = []
    for column in sorted(columns):
        if marks and column - marks[-1][-1] <= 1:
            marks[-1].append(column)
        else:
            marks.append([column])
    return [(m[0] + m[-1]) / 2 for m in marks]


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
    tracks, marks = bar_tracks(world, words, "then")
    ok = tracks and len(tracks) == 2 and 1.8 < tracks[0][1] / tracks[1][1] < 2.2
    # The fast's one point (the eating window opens at 16 h): one mark under the gap.
    gap_at = (tracks[0][0] + tracks[0][1] + tracks[1][0] - 1) / 2 if ok else None
    marked = ok and len(marks) == 1 and abs(marks[0] - gap_at) <= 2
    text = " ".join(w["text"] for w in words if w["line"] == next(w for w in words if w["text"].lower() == "then")["line"])
    return check(marked, f"OCR reads {text!r}; above it two tracks of {tracks[0][1]} and {tracks[1][1]} px "
                         f"(16 h : 8 h) with a {tracks[1][0] - tracks[0][0] - tracks[0][1]} px gap, and 1 point mark "
                         f"under the gap (column {marks[0]:.1f}, gap at {gap_at:.1f})" if marked else "",
                 f"tracks {tracks}, point marks at columns {marks} (gap at {gap_at}) above {text!r}")


def check_scheduled(run, popup_column, shot):
    """`--at` 6 s ahead: pending at once, active by itself, its start alert on screen.

    Beside a KDE job the alert is held for 15 s (`AlertHold.seconds`) and then withdrawn, while
    one OCR of the popups takes seconds (over 12 s for the whole screen under load): so the
    popup column is grabbed once a second for 8 s after the start, and the frames are read
    afterwards, the first that shows the alert becoming the screenshot."""
    run.la("start", "focus", "session-type=Deep Work", "task=Review", "--id", "later", "--at", str(int(time.time()) + 6))
    import json
    pending = json.loads(run.la("get", "later", "--json")).get("status")
    active = run.wait(lambda: json.loads(run.la("get", "later", "--json")).get("status") == "active", timeout=15, step=0.3)
    active_at = time.time()
    frames = []
    for index in range(8):
        time.sleep(max(0.0, active_at + 1 + index - time.time()))  # a frame a second, not an absence proof
        frames.append((time.time() - active_at, grab(run.world, run.world.file("ocr", f"scheduled-{index}.png"), popup_column)))
    # What the daemon sent for the session, and how the server answered (a missing alert's diagnosis).
    sent = [f"{n['summary']!r}/{n['body'][:40]!r} replaces {n['replaces']} urgency {n['hints'].get('urgency')} "
            f"timeout {n['timeout']} at {n['at'] - active_at:+.1f} s -> {n['id'] or n['error']}"
            for n in run.notifies()[-40:] if "Started" in n["summary"] + n["body"]][:3]
    run.la("end", "later", "--reason", "cancelled", "--dismissal", "immediate")
    words, seen, alert = [], [], False
    for index, (at, frame) in enumerate(frames):
        words = read_words(frame, popup_column, run.world.file("ocr", f"scheduled-{index}-3x.png"), 3, [])
        alert = shows(words, "Started") and shows(words, "Deep Work")
        seen.append(f"{at:.1f} s: {'the alert' if alert else 'its card' if shows(words, 'Deep Work') else 'neither'}")
        if alert:
            break
    shutil.copyfile(frame, shot)  # the frame with the alert, or the last one
    return check(pending == "pending" and active and alert,
                 f"pending, then active by itself; the frame {seen[-1].split(':')[0]} after the start reads {text_of(words)!r}",
                 f"status at start {pending}, active {active}; frames read: {', '.join(seen)}; Notify calls: {sent}; "
                 f"OCR of the last frame: {text_of(words)!r}")
