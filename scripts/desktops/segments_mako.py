"""A 16:8 fast's card on mako (issue 21), for the `mako` row: mako draws the `value` hint as its
own bar (the bubble's background filled in `progress-color` as far as the value), and the card
gains the segment text ("Fasting 12h of 16h · then Eating window 8h"). Read back from
`makoctl list` (the body mako holds), from the Notify the daemon sent (its int32 `value` hint)
and from the screen: in the bubble's rows without text, the progress colour covers as much of
the bubble as the value says. Screenshot docs/screenshots/mako-segments.png.
"""
import os
import subprocess
import time

from scenario import check

FAST_TITLE = "Fasting · 16:8"
SEGMENT_TEXT = "Fasting 12h of 16h · then Eating window 8h"
#: The colours of servers_wayland.Mako's config: the bubble and its progress fill.
BACKGROUND = (0x28, 0x55, 0x77)
PROGRESS = (0x55, 0x88, 0xAA)


def near(pixel, colour):
    return sum(abs(a - b) for a, b in zip(pixel, colour)) <= 12


def screen_rows(shot, rows):
    """The first `rows` pixel rows of the screenshot, as lists of RGB tuples."""
    size = subprocess.run(["identify", "-format", "%w %h", shot], capture_output=True, text=True, check=True,
                          timeout=30).stdout.split()
    width, height = int(size[0]), min(int(size[1]), rows)
    raw = subprocess.run(["convert", shot, "-crop", f"{width}x{height}+0+0", "+repage", "-depth", "8", "rgb:-"],
                         capture_output=True, check=True, timeout=30).stdout
    return [[tuple(raw[(r * width + c) * 3:(r * width + c) * 3 + 3]) for c in range(width)] for r in range(height)]


def drawn_bar(rows):
    """How much of the bubble mako filled, and the bubble's box (x, y, w, h): over the rows that
    hold only the bubble's two colours (no text), the share of progress-coloured pixels."""
    fractions = []
    box = None
    for y, row in enumerate(rows):
        columns = [x for x, p in enumerate(row) if near(p, BACKGROUND) or near(p, PROGRESS)]
        if len(columns) < 100:
            continue
        left, right = columns[0], columns[-1]
        box = (left, box[1] if box else y, right - left + 1, y - (box[1] if box else y) + 1)
        if len(columns) == right - left + 1:  # a row of the bubble with no text in it
            filled = sum(1 for p in row[left:right + 1] if near(p, PROGRESS))
            fractions.append(filled / len(columns))
    return (sorted(fractions)[len(fractions) // 2] if fractions else None), box


def check_segments(run, shots):
    """A 16:8 fast started 12 h ago: mako's bar at 75 % and the segment text as the body's last line."""
    world, server = run.world, run.server
    run.la("start", "fasting", "protocol=16:8", f"start-time={int(time.time()) - 12 * 3600}", "--id", "fast168")
    card = run.wait(lambda: next((c for c in server.cards(world) if c["summary"] == FAST_TITLE
                                  and SEGMENT_TEXT in c["body"]), None), timeout=10)
    sent = [n for n in run.notifies() if n["summary"] == FAST_TITLE]
    value, value_type = (sent[-1]["hints"].get("value"), sent[-1]["hint_types"].get("value")) if sent else (None, None)
    time.sleep(0.5)  # mako draws the bubble after it answers the Notify
    shot = world.file("mako", "segments.png")
    server.screenshot(world, shot)
    fraction, box = drawn_bar(screen_rows(shot, 300))
    if box:
        subprocess.run(["convert", shot, "-crop", "%dx%d+%d+%d" % (box[2] + 20, box[3] + 20, box[0] - 10, max(0, box[1] - 10)),
                        "+repage", os.path.join(shots, "mako-segments.png")], check=True, timeout=30)
    run.la("end", "fast168", "--dismissal", "immediate")
    body = (card or {}).get("body", "")
    ok = card is not None and body.splitlines()[-1] == SEGMENT_TEXT and value == 75 and value_type == "i" \
        and fraction is not None and abs(fraction - 0.75) <= 0.03
    return check(ok, f"makoctl list: body ends {body.splitlines()[-1]!r}; value hint int32 {value}; on screen mako "
                     f"filled {fraction:.0%} of the {box[2]} px bubble" if ok else "",
                 f"card {card}, value {value!r} ({value_type}), filled {fraction}, bubble {box}")


def play(run):
    """Adds the check to the row (the matrix prints it with the others)."""
    run.row["segments: value bar + segment text"] = check_segments(run, os.path.dirname(run.screenshot_path))
