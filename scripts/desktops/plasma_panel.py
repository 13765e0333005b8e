"""Plasma 5.27's panel as a KDE user sees it: our applet (installed by `make install-files`,
added by a Plasma script), our tray item (with kded5's StatusNotifierWatcher, as in a real
session) and the job cards, all read back from the screen with OCR (tesseract).

Used by the `plasma` row: `prepare()` before plasmashell starts, `check_panel()` while the
scenario's activities are live, `check_empty()` after they ended. Each check adds a column to the row (see EXTRA_COLUMNS).
"""
import json
import os
import re
import subprocess
import time

from scenario import check, na, no, yes
from world import ServerFailed

APPLET = "io.github.liveactivities.compact"
PACKAGES = ["kded5", "tesseract-ocr", "xdotool"]
EXTRA_COLUMNS = ["tray item in the panel", "panel: compact text", "panel: follows Update", "job card: body",
                 "Plasma 5 applet offered", "applet popup: rows", "applet popup: markup shown as text",
                 "applet: cost", "applet popup: button", "applet: no QML errors", "panel: empty after End"]
APPLET6 = "io.github.liveactivities.compact6"  # installed beside ours by the same install
MARKUP_TITLE, MARKUP_BODY = "<b>Bold</b>", "plain <i>text</i>"
PANEL_HEIGHT = 44  # Plasma 5.27's default bottom panel at 96 dpi, with a margin


def prepare(world, env, repo, bins):
    """Installs the applet into a prefix of the world (as `make install-files` does for a user),
    puts it first in XDG_DATA_DIRS of `env` and starts kded5 (the tray's watcher)."""
    prefix = world.path("prefix")
    subprocess.run(["make", "-s", "-C", repo, "install-files", f"BIN={bins}", f"PREFIX={prefix}"], check=True,
                   stdout=subprocess.DEVNULL, timeout=60)
    env["XDG_DATA_DIRS"] = f"{prefix}/share:/usr/local/share:/usr/share"
    # As in a real Plasma session: without it kded5 loads only its phase-0 modules, and the
    # StatusNotifierWatcher is not one of them (then no tray shows any item).
    env["KDE_SESSION_VERSION"] = "5"
    kded = world.spawn("kded5", ["kded5"], env=env)
    world.wait_for_name("org.kde.kded5", timeout=30, process=kded, process_name="kded5")
    # What plasma-session asks of kded5 once the session is up: load the modules of its second
    # phase, the StatusNotifierWatcher among them.
    subprocess.run(["dbus-send", f"--bus={world.session_address}", "--type=method_call", "--dest=org.kde.kded5",
                    "/kded", "org.kde.kded5.loadSecondPhase"], check=True, env=env, timeout=10)
    world.wait_for_name("org.kde.StatusNotifierWatcher", timeout=60, process=kded, process_name="kded5")
    return prefix


# --- the screen ---------------------------------------------------------------------------

def grab(world, path, crop=None):
    """A screenshot of the root window (cropped to `crop` = (w, h, x, y))."""
    args = ["import", "-window", "root"]
    if crop:
        args += ["-crop", "%dx%d+%d+%d" % crop, "+repage"]
    subprocess.run(args + [path], env=world.env(), check=True, timeout=30)
    return path


def ocr_words(world, crop, name, after_grab=None):
    """The words tesseract reads in `crop` (upscaled 3x, greyscale), with their screen boxes;
    `after_grab` runs right after the screenshot (before the slow OCR)."""
    shot = grab(world, world.file("ocr", f"{name}.png"), crop)
    if after_grab:
        after_grab()
    return read_words(shot, crop, world.file("ocr", f"{name}-3x.png"), 3, [])


def ocr_readings(world, crop, name, after_grab=None):
    """Three readings of one screenshot of `crop`: 3x greyscale, 4x sharpened to black and
    white, and its right end at 5x. Small panel text one of them misreads (CI runs read "Tea
    9:38" as "Ll 9:38" and "Ll Ta 9:38") another usually reads; a check passes when one
    reading shows what it expects."""
    shot = grab(world, world.file("ocr", f"{name}.png"), crop)
    if after_grab:
        after_grab()
    readings = [read_words(shot, crop, world.file("ocr", f"{name}-3x.png"), 3, []),
                read_words(shot, crop, world.file("ocr", f"{name}-4x.png"), 4, ["-sharpen", "0x1", "-threshold", "60%"])]
    # And the right end alone (where the panel's last applet sits) at 5x: a short line with no
    # clock or icons beside it is what tesseract reads best.
    width = min(crop[0], 320)
    end = world.file("ocr", f"{name}-end.png")
    subprocess.run(["convert", shot, "-crop", f"{width}x{crop[1]}+{crop[0] - width}+0", "+repage", end], check=True, timeout=30)
    readings.append(read_words(end, (width, crop[1], crop[2] + crop[0] - width, crop[3]),
                               world.file("ocr", f"{name}-end-5x.png"), 5, []))
    return readings


def read_words(shot, crop, big, scale, treatment, options=()):
    """tesseract's words in `shot` (a screenshot of `crop`) upscaled `scale` times, greyscale,
    with `treatment` (more ImageMagick options), mapped back to screen boxes. `options`: more
    tesseract options (`--psm 6` reads one short line that its page layout analysis misses)."""
    subprocess.run(["convert", shot, "-resize", f"{scale * 100}%", "-colorspace", "Gray", *treatment, big],
                   check=True, timeout=30)
    tsv = subprocess.run(["tesseract", big, "-", *options, "tsv"], capture_output=True, text=True, timeout=60).stdout
    words = []
    for line in tsv.splitlines()[1:]:
        cells = line.split("\t")
        if len(cells) == 12 and cells[11].strip():
            left, top, width, height = (int(c) / scale for c in cells[6:10])
            words.append({"text": cells[11].strip(), "x": crop[2] + left + width / 2, "y": crop[3] + top + height / 2,
                          "left": crop[2] + left, "line": (cells[2], cells[3], cells[4])})
    return words


def text_of(words):
    lines = {}
    for w in words:
        lines.setdefault(w["line"], []).append(w["text"])
    return " / ".join(" ".join(ws) for ws in lines.values())


def letters(text):
    """The ASCII letters and digits of `text`, lowercased: what OCR and the daemon agree on."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def shows(words, expected):
    """Whether the OCR words contain `expected` (emoji and punctuation aside)."""
    wanted = letters(expected)
    return bool(wanted) and wanted in letters("".join(w["text"] for w in words))


def nearly_shows(words, expected):
    """`shows`, or: every number of `expected` exactly, and each of its words of three or more
    letters as one OCR word at most one letter off ("Ta" for "Tea"). Another activity's text
    differs in its title or its time, so it still does not pass."""
    if shows(words, expected):
        return True
    read = letters("".join(w["text"] for w in words))
    if not all(number in read for number in re.findall(r"\d+", expected.replace(":", ""))):
        return False
    tokens = [letters(w["text"]) for w in words]
    return all(any(edit_distance(token, letters(word)) <= 1 for token in tokens)
               for word in re.findall(r"[A-Za-z]{3,}", expected))


def edit_distance(a, b):
    """Levenshtein distance of two short strings."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


# --- the checks ---------------------------------------------------------------------------

def check_panel(run):
    """Adds the panel's, tray's, job cards' and applet's columns to `run.row`."""
    world, row = run.world, run.row
    begun = time.time()
    width, height = run.server.screen
    panel = (width, PANEL_HEIGHT, 0, height - PANEL_HEIGHT)
    row["tray item in the panel"] = check_tray(run)

    script = lambda code: str(run.bus_call("org.kde.plasmashell", "/PlasmaShell", "org.kde.PlasmaShell",
                                           "evaluateScript", "s", [code])).strip()
    known = script("print(knownWidgetTypes.filter(function (t) { return t.indexOf('io.github.liveactivities') === 0; })"
                   ".join(' '))").split()
    # Plasma 5.27 has no filter that hides an applet declaring X-Plasma-API-Minimum-Version 6.0:
    # it lists the Plasma 6 applet too (each one's description names its Plasma). Added by
    # mistake, the Plasma 6 applet shows nothing and logs nothing on 5.27 (seen on screen).
    row["Plasma 5 applet offered"] = check(
        APPLET in known and set(known) <= {APPLET, APPLET6},
        f"knownWidgetTypes lists {known}: ours, and the Plasma 6 one beside it (described \"for Plasma 6\")",
        f"knownWidgetTypes lists {known}")
    reply = script(f"print(panels()[0].addWidget('{APPLET}').id)")
    compact = lambda: str(run.bus_call("io.github.liveactivities.LiveActivities1",
                                       "/io/github/liveactivities/LiveActivities1", "org.freedesktop.DBus.Properties",
                                       "Get", "ss", ["io.github.liveactivities.LiveActivities1", "CompactText"]))
    seen = []  # CompactText just before and just after each screenshot (a timer ticks meanwhile)

    def panel_matches():
        before = compact()
        words = ocr_words(world, panel, "panel", after_grab=lambda: seen.append((before, compact())))
        return (words, seen[-1]) if any(shows(words, text) for text in seen[-1]) else None

    found = run.wait(panel_matches, timeout=12, step=0.5)
    words, texts = found or (ocr_words(world, panel, "panel"), seen[-1] if seen else ("?", "?"))
    run.notes.append(f"panel OCR: {text_of(words)!r}; CompactText {texts}")
    row["panel: compact text"] = check(bool(found), f"applet {reply.strip()} added by a Plasma script; OCR of the "
                                       f"panel reads {text_of(words)!r}: CompactText {texts[0]!r} (emoji aside)",
                                       f"OCR of the panel reads {text_of(words)!r}, CompactText was {texts}")

    started = time.time()
    run.la("update", "tea", "title=Oolong", "--relevance", "10")
    words = run.wait(lambda: (lambda ws: ws if shows(ws, "Oolong") else None)(ocr_words(world, panel, "panel-2")),
                     timeout=6, step=0.5) or []
    row["panel: follows Update"] = check(bool(words), f"after an Update the panel reads {text_of(words)!r} "
                                         f"within {time.time() - started:.1f} s",
                                         "the panel never showed the updated title 'Oolong'")

    row["job card: body"] = check_job_body(run, width, height)
    run.la("start", "generic", f"title={MARKUP_TITLE}", f"body={MARKUP_BODY}", "--id", "markup", "--relevance", "1")
    closed_reads = len(reads(run))  # the panel followed the updates above with the popup closed
    popup_words, applet = open_popup(run, panel)
    row["applet popup: rows"] = check_rows(run, popup_words)
    if applet:
        import segments_plasma  # it imports this module
        row["applet popup: segmented bar"] = segments_plasma.check_segments(
            world, (560, 640, 0, height - PANEL_HEIGHT - 640),
            os.path.join(os.path.dirname(run.screenshot_path), "plasma-segments.png"))
    row["applet popup: markup shown as text"] = check(shows(popup_words, MARKUP_TITLE) and shows(popup_words, MARKUP_BODY),
                                                      f"OCR of the popup reads {MARKUP_TITLE!r} and {MARKUP_BODY!r} "
                                                      "literally", f"not literal; OCR: {text_of(popup_words)!r}")
    opened = time.time()
    first = len(reads(run))
    ticks = run.wait(lambda: len(reads(run)) >= first + 3, timeout=10)  # the tea timer ticks every second
    rate = (len(reads(run)) - first) / (time.time() - opened)
    row["applet: cost"] = check(closed_reads == 0 and ticks,
                                f"popup closed: {closed_reads} CLI runs while the panel followed the updates; "
                                f"popup open: {rate:.1f} row reads/s (one `liveactivity list` + one `get` per "
                                "activity each time the compact text changes)",
                                f"{closed_reads} CLI runs with the popup closed; {rate:.1f}/s open")
    row["applet popup: button"] = press_button(run, popup_words)
    time.sleep(1.5)  # the popup reads its rows again after the press
    shot = os.path.join(os.path.dirname(run.screenshot_path), "plasma-panel.png")
    grab(world, shot, (960, 540, 0, height - 540))
    run.notes.append(f"screenshot of the panel and the applet's popup: {shot}")
    click(run, applet)  # closes the popup again
    run.la("end", "markup", "--dismissal", "immediate")
    run.notes.append(f"panel checks took {time.time() - begun:.0f} s")
    errors = [line for line in world.log("plasmashell", tail=4000).splitlines() if APPLET in line]
    row["applet: no QML errors"] = check(not errors, "plasmashell logged nothing about the applet",
                                         f"{len(errors)} lines: {errors[:3]}")


def reads(run):
    """The applet's row reads so far: `GetManagedObjects` calls on the daemon, one per read
    (`liveactivity list --json`; the scenario lists only in check_rows, before the counts)."""
    return run.record().calls("GetManagedObjects", "org.freedesktop.DBus.ObjectManager")


def check_tray(run):
    """Our StatusNotifierItem is registered with kded5's watcher, Active, with an icon Breeze has."""
    items = run.bus_call("org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher", "org.freedesktop.DBus.Properties",
                         "Get", "ss", ["org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems"])
    ours = [str(i) for i in items if str(i).startswith(run.daemon_name + "/")]  # registered by path: `<unique name>/path`
    if not ours:
        return no(f"kded5's watcher lists {list(map(str, items))}, not ours")
    name = run.tray_name = ours[0].split("/")[0]
    prop = lambda key: str(run.bus_call(name, "/StatusNotifierItem", "org.freedesktop.DBus.Properties", "Get", "ss",
                                        ["org.kde.StatusNotifierItem", key]))
    status, icon = prop("Status"), prop("IconName")
    # The item shows the most relevant activity's icon: every shipped kind's must be in Breeze
    # (Plasma draws nothing for a name its theme lacks).
    icons = {icon} | set(kind_icons(os.path.join(run.repo, "data", "kinds")))
    missing = sorted(i for i in icons if not in_breeze(i))
    return check(status == "Active" and not missing, f"registered with kded5's watcher, Status {status}, icon "
                 f"{icon}; every kind's icon is in Breeze ({', '.join(sorted(icons))})",
                 f"Status {status}, icon {icon!r}; not in Breeze: {missing}")


def kind_icons(directory):
    """The icon names the shipped kinds use (a template's quoted fallback counts)."""
    for name in sorted(os.listdir(directory)):
        with open(os.path.join(directory, name)) as f:
            icon = json.load(f).get("icon", "")
        yield from re.findall(r"'([^']+)'", icon) if "{" in icon else [icon] if icon else []


def in_breeze(icon):
    return bool(subprocess.run(["find", "/usr/share/icons/breeze", "-name", f"{icon}.svg"], capture_output=True,
                               text=True).stdout.strip())


def check_job_body(run, width, height):
    """The fast's job card shows its body (the card's text) without being expanded."""
    body = json.loads(run.la("get", "fast", "--json")).get("body", "")
    first = body.splitlines()[0] if body else ""
    cards = (480, 640, width - 500, height - PANEL_HEIGHT - 640)  # Plasma stacks its popups bottom right
    words = ocr_words(run.world, cards, "job-cards")
    probe = first.split("·")[0].strip()  # "3h of 16h"-like: stable while the check runs
    return check(probe and shows(words, probe), f"OCR of the job cards reads {probe!r} (the body's first part)",
                 f"the body {first!r} is not on screen; OCR: {text_of(words)!r}")


def open_popup(run, panel):
    """Clicks the applet (where OCR found 'Oolong') and reads the popup above the panel: (words, where)."""
    words = ocr_words(run.world, panel, "panel-3")
    target = next((w for w in words if "oolong" in w["text"].lower()), None)
    if target is None:
        return [], None
    click(run, target)
    width, height = run.server.screen
    area = (560, 640, 0, height - PANEL_HEIGHT - 640)  # the popup opens above the applet, bottom left
    words = run.wait(lambda: (lambda ws: ws if shows(ws, "Oolong") and shows(ws, "Pomodoro") else None)(
        ocr_words(run.world, area, "popup")), timeout=8, step=1) or ocr_words(run.world, area, "popup")
    return words, target


def check_rows(run, words):
    if not words:
        return no("the applet was not found on the panel to open its popup")
    rows = json.loads(run.la("list", "--json"))
    titles = [r["title"] for r in rows if r["status"] in ("active", "paused", "stale")]
    missing = [t for t in titles if not shows(words, t.split("·")[0])]
    return check(not missing, f"a click on the applet opened the popup; OCR reads every live title {titles}",
                 f"missing {missing}; OCR of the popup: {text_of(words)!r}")


def click(run, word):
    """A real pointer click (xdotool) on the middle of an OCR word."""
    if word:
        subprocess.run(["xdotool", "mousemove", str(int(word["x"])), str(int(word["y"])), "click", "1"],
                       env=run.world.env(), check=True, timeout=10)


def press_button(run, words):
    """Clicks the Pause button of the Oolong row; the daemon then pauses the tea timer."""
    heading = next((w for w in words if "oolong" in w["text"].lower()), None)
    buttons = [w for w in words if w["text"] == "Pause" and heading and w["y"] > heading["y"]]
    if not buttons:
        return na("no Pause button read under the Oolong row (the daemon has no Actions yet?)")
    click(run, min(buttons, key=lambda w: w["y"]))
    paused = run.wait(lambda: json.loads(run.la("get", "tea", "--json")).get("status") == "paused", timeout=6)
    return check(paused, "a click on Pause in the popup paused the tea timer (liveactivity action tea pause)",
                 "the tea activity is not paused after the click on Pause")


def check_empty(run):
    """After the last End: the tray item turns Passive and the applet shows no text any more."""
    width, height = run.server.screen
    left = (320, PANEL_HEIGHT, 0, height - PANEL_HEIGHT)  # where the applet sits (first in the panel)
    status = lambda: str(run.bus_call(run.tray_name, "/StatusNotifierItem", "org.freedesktop.DBus.Properties", "Get",
                                      "ss", ["org.kde.StatusNotifierItem", "Status"]))
    passive = run.wait(lambda: status() == "Passive", timeout=5)

    def empty():
        words = ocr_words(run.world, left, "panel-after-end")
        text = " ".join(w["text"] for w in words)
        return None if "oolong" in text.lower() or re.search(r"\d:\d\d", text) else (words,)

    found = run.wait(empty, timeout=8, step=0.5)
    run.row["panel: empty after End"] = check(passive and found, "the tray item is Passive and the applet's place in "
                                              f"the panel reads no activity (OCR: {text_of(found[0]) if found else ''!r})",
                                              f"Status {status()}; the panel still reads "
                                              f"{text_of(ocr_words(run.world, left, 'panel-after-end'))!r}")
