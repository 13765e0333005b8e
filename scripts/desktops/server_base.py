"""What every server offers the scenario; each server overrides what it can say better."""
from scenario import check, na, no, yes


class Server:
    name = "?"
    packages = []
    #: does the server draw the int32 `value` hint as a bar (else we must send a text bar)?
    draws_value = False

    def start(self, world):
        raise NotImplementedError

    def screenshot(self, world, path):
        raise NotImplementedError

    def on_screen(self, world):
        """How many of our cards are on screen (bubbles, banners, list entries)."""
        raise NotImplementedError

    def cards(self, world):
        """Every notification the server holds, as dicts with id, app, summary, body (None: cannot say)."""
        return None

    def quiet_banners(self, world):
        """Before routine updates: bring the screen to rest (GNOME: hide the banner)."""

    def banner_popped(self, world):
        """After routine updates: what popped up again (False: nothing; None: cannot say)."""
        return None

    def press(self, world, notification_id, key, label):
        """Presses button `key` of a card on the server's side: (True, how) or (None, why not)."""
        return None, "the server offers no way to press a button without a real pointer"

    def alert(self, run, notify):
        """Whether the alert shows (None: use the generic check)."""
        return None

    def progress(self, run, notify):
        """Whether the fast's progress is visible on the card."""
        hints, body = notify["hints"], notify["body"]
        if self.draws_value:
            return check("value" in hints and notify["hint_types"].get("value") == "i" and "▰" not in body,
                         f"value hint int32 {hints.get('value')} (drawn as a bar)",
                         f"expected an int32 value hint and no text bar; got {notify['hint_types']} / {body!r}")
        if "value" in hints:
            return no(f"value hint sent to a server that does not draw it (or hides text): {hints['value']}")
        bar = next((line for line in body.splitlines() if "▰" in line or "▱" in line), None)
        if bar is None:
            return no(f"no text progress bar in the body: {body!r}")
        cards = run.server_cards()
        if cards is not None:
            shown = [c for c in cards if c.get("id") == notify["id"]]
            return check(shown and bar in shown[0].get("body", ""), "text bar in the body the server holds",
                         f"the server holds {shown}")
        return yes("text bar in the body: " + bar)

    def after_end(self, run):
        """Checks that can only run once the cards are closed."""
