"""Segments and scheduled starts on dunst (issue 21), for the `dunst` row: dunst draws the `value`
hint as its own bar, and the card gains the segment text ("Fasting 12h of 16h · then Eating
window 8h"), read back from the screen (OCR) and from `dunstctl history` (text and the progress
it drew); a focus session scheduled a few seconds ahead makes no card while pending, then pops
up with its start alert. Screenshots docs/screenshots/dunst-segments.png and dunst-scheduled.png.
"""
import json
import os
import subprocess
import time

from plasma_panel import shows, text_of
from scenario import check
from servers_x11 import x_windows

FAST_TITLE = "Fasting · 16:8"
SEGMENT_TEXT = "Fasting 12h of 16h · then Eating window 8h"


def card_area(world):
    """(w, h, x, y) around dunst's bubbles (top right), from the mapped windows."""
    windows = x_windows(world, None)
    if not windows:
        return (520, 300, 1280 - 520, 0)
    left = min(w["x"] for w in windows) - 10
    bottom = max(w["y"] + w["height"] for w in windows) + 10
    return (1280 - max(0, left), bottom, max(0, left), 0)


def ocr_words(world, area, name):
    """The words tesseract reads in dunst's bubbles: light text on a coloured background, so
    the grab is negated and thresholded before OCR (plain greyscale reads nothing there)."""
    shot = world.file("ocr", f"{name}.png")
    shoot(world, area, shot)
    big = world.file("ocr", f"{name}-3x.png")
    subprocess.run(["convert", shot, "-alpha", "off", "-resize", "300%", "-colorspace", "Gray", "-negate",
                    "-threshold", "50%", big], check=True, timeout=30)
    text = subprocess.run(["tesseract", big, "-"], capture_output=True, text=True, timeout=60).stdout
    return [{"text": word, "line": index} for index, line in enumerate(text.splitlines()) for word in line.split()]


def shoot(world, area, path):
    subprocess.run(["import", "-window", "root", "-crop", "%dx%d+%d+%d" % area, "+repage", path], env=world.env(),
                   check=True, timeout=30)


def check_segments(run, shots):
    """A 16:8 fast started 12 h ago: dunst's bar at 75 % and the segment text under the body."""
    world, server = run.world, run.server
    run.la("start", "fasting", "protocol=16:8", f"start-time={int(time.time()) - 12 * 3600}", "--id", "fast168")
    words = run.wait(lambda: (lambda ws: ws if shows(ws, "then Eating window") else None)(
        ocr_words(world, card_area(world), "dunst-segments")), timeout=10, step=1) \
        or ocr_words(world, card_area(world), "dunst-segments")
    shoot(world, card_area(world), os.path.join(shots, "dunst-segments.png"))
    server.ctl(world, "close-all")
    entry = run.wait(lambda: next((e for e in server.history(world) if e.get("summary") == FAST_TITLE), None), timeout=5)
    body = (entry or {}).get("body", "")
    drawn = (entry or {}).get("progress")
    run.la("end", "fast168", "--dismissal", "immediate")
    return check(SEGMENT_TEXT in body and drawn == 75 and shows(words, "then Eating window"),
                 f"dunstctl history: body ends {body.splitlines()[-1]!r}, progress {drawn}% (its own bar); "
                 f"OCR of the bubble reads 'then Eating window'",
                 f"history body {body!r}, progress {drawn}; OCR {text_of(words)!r}")


def check_scheduled(run, shots):
    """`--at` 5 s ahead: pending with no card, then active by itself, its start alert on screen."""
    world, server = run.world, run.server
    before = server.on_screen(world)
    run.la("start", "focus", "session-type=Deep Work", "task=Review", "--id", "later", "--at", str(int(time.time()) + 5))
    pending = json.loads(run.la("get", "later", "--json")).get("status")
    time.sleep(1)
    quiet = server.on_screen(world) == before
    active = run.wait(lambda: json.loads(run.la("get", "later", "--json")).get("status") == "active", timeout=15, step=0.3)
    words = run.wait(lambda: (lambda ws: ws if shows(ws, "Started") and shows(ws, "Deep Work") else None)(
        ocr_words(world, card_area(world), "dunst-scheduled")), timeout=10, step=1) \
        or ocr_words(world, card_area(world), "dunst-scheduled")
    shoot(world, card_area(world), os.path.join(shots, "dunst-scheduled.png"))
    run.la("end", "later", "--reason", "cancelled", "--dismissal", "immediate")
    return check(pending == "pending" and quiet and active and shows(words, "Started"),
                 f"pending with no card, then active by itself; OCR of the bubble: {text_of(words)!r}",
                 f"status at start {pending}, no card while pending {quiet}, active {active}; OCR {text_of(words)!r}")


def play(run):
    shots = os.path.dirname(run.screenshot_path)
    for name, step in (("segments: value bar + segment text", check_segments),
                       ("scheduled start, then its alert", check_scheduled)):
        run.row[name] = step(run, shots)
        print(f"  {name:40} {run.row[name][0]:4} {run.row[name][1]}", flush=True)
