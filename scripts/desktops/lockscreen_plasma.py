"""Our MPRIS player as a Plasma 6 user meets it (issue 26), for the rows plasma6.3 and plasma6.7:
the lock screen's greeter (`kscreenlocker_greet --testing` on the row's Xvfb: after a pointer
move it shows the current player's title and artist, read back by OCR), the panel's Media Player
applet (`org.kde.plasma.mediacontroller`: its title on the panel, its popup, and its Pause
button, which must pause the activity), `playerctl`, and the media keys beside a playing music
player (`fake_player.py`), pressed through kglobalaccel as a key press reaches it.
Screenshots <prefix>-lockscreen.png and <prefix>-mediaplayer.png.
"""
import json
import os
import re
import signal
import subprocess
import sys
import time

from plasma_panel import grab, letters, read_words, shows, text_of
from scenario import check, no

PLAYER = "org.mpris.MediaPlayer2.liveactivities"
MUSIC = "org.mpris.MediaPlayer2.music"
GREETER = "/usr/lib/x86_64-linux-gnu/libexec/kscreenlocker_greet"
KGLOBALACCEL = "/usr/lib/x86_64-linux-gnu/libexec/kglobalacceld"
TITLE = "Pomodoro · Quokka report"
HERE = os.path.dirname(os.path.abspath(__file__))


class LockScreenChecks:
    """The checks, in the order a user would meet them: locked screen, panel, keys."""

    def __init__(self, run, session, env, screen, shots, prefix, add):
        self.run, self.session, self.env, self.screen = run, session, env, screen
        self.world = run.world
        self.shots, self.prefix, self.add = shots, prefix, add

    def play(self):
        run = self.run
        begun = time.time()
        # Plasma 6.7's greeter exits when kglobalaccel is not there; the keys' check needs it too.
        daemon = self.session.spawn("kglobalacceld", [KGLOBALACCEL], self.env)
        self.world.wait_for_name("org.kde.kglobalaccel", timeout=30, process=daemon, process_name="kglobalacceld")
        run.la("start", "focus", "session-type=Pomodoro", "task=Quokka report", "--id", "mpris")
        self.add("MPRIS: playerctl reads it", self.check_playerctl())
        self.add("lock screen: our player", self.check_greeter())
        popup = self.open_applet()
        self.add("media applet: shows it", self.check_applet(popup))
        self.add("media applet: Pause pauses", self.press_pause(popup))
        self.add("playerctl: play resumes", self.check_playerctl_play())
        self.add("media keys: music keeps them", self.check_keys())
        run.la("end", "mpris", "--dismissal", "immediate")
        gone = run.wait(lambda: not self.world.has_owner(PLAYER), timeout=8)
        self.add("MPRIS: gone after End", check(gone, f"{PLAYER} left the bus when the session ended",
                                                f"{PLAYER} still owned after End"))
        print(f"  MPRIS checks: {time.time() - begun:.0f} s", flush=True)

    # --- helpers ----------------------------------------------------------------------------

    def status(self):
        return json.loads(self.run.la("get", "mpris", "--json")).get("status")

    def playerctl(self, *args):
        result = subprocess.run(["playerctl", "--player=liveactivities", *args], env=self.world.env(),
                                capture_output=True, text=True, timeout=20)
        return result.stdout.strip() if result.returncode == 0 else f"(status {result.returncode}: {result.stderr.strip()})"

    def artist(self):
        return self.playerctl("metadata", "xesam:artist")

    def ocr(self, crop, name, thresholds):
        """Readings of one screenshot of `crop`: 3x greyscale as it is; with `thresholds`, also
        negated, and for each threshold (percent) only the pixels brighter than it, as black on
        white (the greeter's white and light grey print on its dark background)."""
        shot = grab(self.world, self.world.file("ocr", f"{name}.png"), crop)
        readings = [read_words(shot, crop, self.world.file("ocr", f"{name}-3x.png"), 3, [])]
        if thresholds:
            readings.append(read_words(shot, crop, self.world.file("ocr", f"{name}-negated.png"), 3, ["-negate"]))
        for level in thresholds:
            readings.append(read_words(shot, crop, self.world.file("ocr", f"{name}-{level}.png"), 3,
                                       ["-threshold", f"{level}%", "-negate"]))
        return readings

    # --- the checks -------------------------------------------------------------------------

    def check_playerctl(self):
        owned = self.run.wait(lambda: self.world.has_owner(PLAYER), timeout=8)
        title = self.playerctl("metadata", "xesam:title")
        status = self.playerctl("status")
        players = self.playerctl("--list-all")
        return check(owned and title == TITLE and status == "Playing",
                     f"playerctl -p liveactivities: title {title!r}, artist {self.artist()!r}, status {status}",
                     f"owned {owned}; playerctl reads title {title!r}, status {status!r}; players {players!r}")

    def check_greeter(self):
        """The greeter shows the clock, then after a pointer move the password field and, under
        it, the current MPRIS player: our title and the artist line (the time left, the end)."""
        # A plain dark background, as a user may choose (Plasma's lock screen settings): the
        # default wallpapers are bright, and the artist's thin grey print on them defeats OCR.
        with open(self.session.host(os.path.join(self.env["XDG_CONFIG_HOME"], "kscreenlockerrc")), "w") as f:
            f.write("[Greeter]\nWallpaperPlugin=org.kde.color\n\n"
                    "[Greeter][Wallpaper][org.kde.color][General]\nColor=35,38,41\n")
        greeter = self.session.spawn("kscreenlocker_greet", [GREETER, "--testing"], self.env)
        width, height = self.screen
        crop = (1000, 360, (width - 1000) // 2, height // 2 - 60)
        artist = self.artist()
        found, readings = None, []
        try:
            # Its window first (it shows the clock alone), then the pointer moves that wake it.
            self.run.wait(lambda: subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "kscreenlocker"],
                                                 env=self.world.env(), capture_output=True, timeout=10).returncode == 0
                          or greeter.poll() is not None, timeout=15, step=0.5)
            deadline = time.time() + 30
            step = 0
            while time.time() < deadline and greeter.poll() is None:
                step += 1
                subprocess.run(["xdotool", "mousemove", str(width // 2 + step * 7 % 50), str(height // 3)],
                               env=self.world.env(), timeout=10)
                time.sleep(0.5)
                readings = self.ocr(crop, "greeter", [40, 55])
                title_seen = any(shows(r, "Quokka report") for r in readings)
                artist_seen = any(shows(r, artist) or self.nearly_artist(r, artist) for r in readings)
                if title_seen and artist_seen:
                    found = readings
                    break
                artist = self.artist()  # the minute may have turned
            shot = os.path.join(self.shots, f"{self.prefix}-lockscreen.png")
            grab(self.world, shot)
            print(f"  screenshot: {shot}", flush=True)
        finally:
            if greeter.poll() is None:
                os.killpg(greeter.pid, signal.SIGTERM)
                greeter.wait(timeout=10)
        if greeter.returncode not in (None, 0, -signal.SIGTERM) and not found:
            return no(f"kscreenlocker_greet exited ({greeter.returncode}): {self.world.log('kscreenlocker_greet', tail=5)}")
        best = max(readings, key=lambda r: len(r)) if readings else []
        return check(found is not None, f"after a pointer move the greeter reads the title {TITLE!r} and the artist "
                     f"{artist!r} under the password field (OCR)",
                     f"title or artist {artist!r} not read; OCR: {text_of(best)!r}")

    @staticmethod
    def nearly_artist(words, artist):
        """The artist line's numbers (minutes left, the end's HH:MM) and the word 'left' in one
        reading: the thin grey print of the greeter's artist line loses a letter now and then."""
        read = letters(" ".join(w["text"] for w in words))
        numbers = re.findall(r"\d+", artist.replace(":", ""))
        return bool(numbers) and all(n in read for n in numbers) and "left" in read

    def open_applet(self):
        """Adds the Media Player applet to the panel (it shows the current player's title there)
        and clicks that title: its popup opens above it. The popup's OCR words, or None."""
        added = str(self.run.bus_call("org.kde.plasmashell", "/PlasmaShell", "org.kde.PlasmaShell", "evaluateScript",
                                      "s", ["print(panels()[0].addWidget('org.kde.plasma.mediacontroller').id)"]))
        width, height = self.screen
        target = self.run.wait(lambda: self.on_panel("pomodoro"), timeout=15, step=0.5)
        if not target:
            self.applet_note = f"the applet (id {added}) never showed 'Pomodoro' on the panel"
            return None
        subprocess.run(["xdotool", "mousemove", str(int(target["x"])), str(int(target["y"])), "click", "1"],
                       env=self.world.env(), check=True, timeout=10)
        self.popup_area = (760, 520, width - 760, height - 64 - 520)
        words = self.run.wait(lambda: (lambda ws: ws if shows(ws, "Quokka") else None)(
            self.ocr(self.popup_area, "applet-popup", [])[0]), timeout=10, step=0.5)
        self.applet_note = "" if words else "a click on the applet's title opened no popup showing 'Quokka'"
        return words

    def on_panel(self, word):
        """The OCR word holding `word` (lower case) on the panel's right half, where the Media
        Player applet shows the multiplexer's current player; None when it is not there."""
        width, height = self.screen
        panel = (width // 2, 64, width // 2, height - 64)
        return next((w for r in self.ocr(panel, "applet", []) for w in r if word in w["text"].lower()), None)

    def check_applet(self, words):
        if not words:
            return no(self.applet_note)
        artist = self.artist()
        minutes = re.match(r"(\d+)m left", artist)
        # The popup was read a moment ago: the minute may have turned since.
        shown = {f"{int(minutes.group(1)) + d}m left" for d in (0, 1)} if minutes else set()
        ok = shows(words, "Quokka report") and any(shows(words, text) for text in shown)
        return check(ok, f"the panel shows its title; its popup reads {text_of(words)!r} (the title, and the artist "
                     f"{artist!r} as far as it fits)",
                     f"looked for 'Quokka report' and {artist!r}; OCR of the popup: {text_of(words)!r}")

    def press_pause(self, words):
        """The popup's buttons (shuffle, previous, play/pause, next, repeat) are icons in a row
        centred under the progress line, whose ends read the elapsed (M:SS) and remaining
        (-M:SS) time: the click goes to the middle of that row, a little under those times,
        trying a few heights until the daemon says paused (the other buttons are disabled)."""
        if not words:
            return no(self.applet_note)
        elapsed, remaining, words = self.read_times()
        if not (elapsed and remaining):
            return no(f"the popup's elapsed and remaining times were not read; OCR: {text_of(words)!r}")
        x = int((elapsed["x"] + remaining["x"]) / 2)
        for below in (34, 28, 40, 22, 46):
            subprocess.run(["xdotool", "mousemove", str(x), str(int(elapsed["y"] + below)), "click", "1"],
                           env=self.world.env(), check=True, timeout=10)
            if self.run.wait(lambda: self.status() == "paused", timeout=2):
                time.sleep(1)  # the popup shows Play now
                shot = os.path.join(self.shots, f"{self.prefix}-mediaplayer.png")
                grab(self.world, shot, self.popup_area)
                print(f"  screenshot: {shot}", flush=True)
                playback = self.playerctl("status")
                # Close the popup (Escape) so the checks after it see the panel.
                subprocess.run(["xdotool", "key", "Escape"], env=self.world.env(), timeout=10)
                return check(playback == "Paused",
                             f"a click on the popup's play/pause button ({below} px under the times "
                             f"{elapsed['text']} and {remaining['text']}) paused the activity (our bus: paused; "
                             f"PlaybackStatus {playback})", f"paused, but PlaybackStatus {playback}")
        return no(f"no click in the button row under the times paused the activity (status {self.status()})")

    def read_times(self):
        """The popup's elapsed and remaining time (OCR words), read in strips from its bottom
        up: the small print of a whole popup's reading loses them, a strip of their own does not."""
        width, height, x, y = self.popup_area
        words = []
        for offset in range(0, 300, 20):
            strip = (width, 60, x, y + height - 60 - offset)
            shot = grab(self.world, self.world.file("ocr", "times.png"), strip)
            words = read_words(shot, strip, self.world.file("ocr", "times-3x.png"), 3, [], ["--psm", "6"])
            times = [w for w in words if re.fullmatch(r"-?\d+:\d\d", w["text"])]
            elapsed = next((w for w in times if not w["text"].startswith("-")), None)
            remaining = next((w for w in times if w["text"].startswith("-")), None)
            if elapsed and remaining:
                return elapsed, remaining, words
        return None, None, words

    def check_playerctl_play(self):
        subprocess.run(["playerctl", "--player=liveactivities", "play"], env=self.world.env(), timeout=20)
        resumed = self.run.wait(lambda: self.status() == "active", timeout=5)
        return check(resumed and self.playerctl("status") == "Playing",
                     "playerctl -p liveactivities play resumed the activity (our bus: active; status Playing)",
                     f"after playerctl play: status {self.status()}, playerctl {self.playerctl('status')!r}")

    # --- the media keys ---------------------------------------------------------------------

    def press_play_pause(self):
        """What the Play/Pause key does in a Plasma session: kglobalaccel runs kded6's
        `mediacontrol` action `playpausemedia` (libkmpris' MprisService), which sends Pause or
        Play to the multiplexer's current player. Invoked through kglobalaccel, as the key's grab
        does (`xdotool key XF86AudioPlay` on Xvfb did not reach kglobalacceld)."""
        self.run.bus_call("org.kde.kglobalaccel", "/component/mediacontrol", "org.kde.kglobalaccel.Component",
                          "invokeShortcut", "s", ["playpausemedia"])
        time.sleep(0.8)

    def check_keys(self):
        """A music player that starts playing while our timer runs gets the Play/Pause key: ours
        steps aside while it plays and a minute after it paused, and takes it again once the
        music player has gone."""
        # kded6's MprisService registered its shortcuts before kglobalaccel ran; KGlobalAccel
        # registers them again when the daemon appears.
        registered = self.run.wait(lambda: "/component/mediacontrol" in [str(p) for p in self.run.bus_call(
            "org.kde.kglobalaccel", "/kglobalaccel", "org.kde.KGlobalAccel", "allComponents")], timeout=15)
        if not registered:
            return no("kded6's mediacontrol shortcuts never reached kglobalaccel")
        calls = self.world.file("music.calls")
        music = self.world.spawn("fake-music", [sys.executable, os.path.join(HERE, "fake_player.py"),
                                                self.world.session_address, "music", "Test Track", "Paused", calls])
        self.run.wait(lambda: self.world.has_owner(MUSIC), timeout=10)
        notes = []
        try:
            aside = self.world.has_owner(PLAYER)
            music.send_signal(signal.SIGUSR1)  # the user starts the music in its own window
            stepped = self.run.wait(lambda: not self.world.has_owner(PLAYER), timeout=8)
            # Plasma has taken the change in once its applet shows the music.
            chosen = self.run.wait(lambda: self.on_panel("track"), timeout=15, step=0.5)
            notes.append(f"music paused beside our running timer: ours on the bus {aside}; music plays: "
                         f"ours {'left' if stepped else 'stayed'}, the applet shows {'the music' if chosen else '?'}")
            self.press_play_pause()
            first = open(calls).read().split()
            status_after_first = self.status()
            self.press_play_pause()
            second = open(calls).read().split()
            notes.append(f"key: music got {first[1:]}, our activity {status_after_first}; key again: music got "
                         f"{second[1:]}")
            os.killpg(music.pid, signal.SIGTERM)
            music.wait(timeout=10)
            back = self.run.wait(lambda: self.world.has_owner(PLAYER), timeout=8)
            # Plasma adds a player once it has read its properties: wait until its applet shows ours.
            shown = self.run.wait(lambda: self.on_panel("pomodoro"), timeout=15, step=0.5)
            self.press_play_pause()
            self.run.wait(lambda: self.status() == "paused", timeout=3)
            ours = self.status()
            notes.append(f"music quit: ours back {back}, the applet shows it {bool(shown)}; key: our activity {ours}")
            if ours == "paused":
                self.run.la("resume", "mpris")
        finally:
            if music.poll() is None:
                os.killpg(music.pid, signal.SIGTERM)
                music.wait(timeout=10)
        ok = (aside and stepped and first[1:] == ["Pause"] and status_after_first == "active"
              and second[1:] == ["Pause", "Play"] and back and ours == "paused")
        return check(ok, "; ".join(notes), "; ".join(notes))
