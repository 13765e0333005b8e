"""Records every message on a bus as one JSON line (run as a process of its own), and reads
the record back: which Notify calls our daemon made, what the server answered, which
signals went where. This is what "what we sent" checks are made of; "what the server
shows" comes from each server's own tools."""
import json
import time
import sys


def _plain(value):
    """dbus-python values as JSON-friendly Python values (variants unwrapped)."""
    import dbus
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.Byte,)):
        return int(value)
    if isinstance(value, (dbus.Int16, dbus.UInt16, dbus.Int32, dbus.UInt32, dbus.Int64, dbus.UInt64)):
        return int(value)
    if isinstance(value, dbus.Double):
        return float(value)
    if isinstance(value, (dbus.String, dbus.ObjectPath, dbus.Signature)):
        return str(value)
    if isinstance(value, dbus.Dictionary):
        typed = str(value.signature or "").endswith("v")
        return {str(k): _typed(v) if typed else _plain(v) for k, v in value.items()}
    if isinstance(value, (dbus.Array, dbus.Struct, list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return list(value)
    return str(value)


def _typed(value):
    """A variant's value with its D-Bus type letter (hint types matter: mako refuses uint32)."""
    import dbus
    letter = {dbus.Byte: "y", dbus.Boolean: "b", dbus.Int16: "n", dbus.UInt16: "q", dbus.Int32: "i",
              dbus.UInt32: "u", dbus.Int64: "x", dbus.UInt64: "t", dbus.Double: "d", dbus.String: "s",
              dbus.ObjectPath: "o"}.get(type(value), "?")
    return {"t": letter, "v": _plain(value)}


def run_monitor(address, out_path):
    import dbus
    import dbus.mainloop.glib
    from gi.repository import GLib
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(address)
    out = open(out_path, "a", buffering=1)
    kinds = {1: "call", 2: "return", 3: "error", 4: "signal"}

    def record(_bus, message):
        try:
            args = [_plain(a) for a in message.get_args_list()]
        except Exception as error:  # a message we cannot decode is still recorded
            args = [f"<{error}>"]
        entry = {"kind": kinds.get(message.get_type(), "?"), "at": time.time(), "sender": message.get_sender(),
                 "destination": message.get_destination(), "serial": message.get_serial(),
                 "reply_serial": message.get_reply_serial(), "path": message.get_path(),
                 "interface": message.get_interface(), "member": message.get_member(),
                 "error": message.get_error_name(), "args": args}
        out.write(json.dumps(entry) + "\n")

    bus.add_message_filter(record)
    bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.Monitoring",
                      "BecomeMonitor", "asu", ([], 0))
    out.write(json.dumps({"kind": "ready"}) + "\n")
    GLib.MainLoop().run()


class Record:
    """The messages recorded so far, with the questions the checks ask."""

    def __init__(self, path):
        self.messages = []
        with open(path) as f:
            for line in f:
                try:
                    self.messages.append(json.loads(line))
                except ValueError:
                    pass

    def reply_to(self, call):
        for m in self.messages:
            if m["kind"] in ("return", "error") and m["reply_serial"] == call["serial"] \
                    and m["destination"] == call["sender"]:
                return m
        return None

    def notifies(self, pid, destination=None):
        """The Notify calls of process `pid` (libnotify sends its `sender-pid` hint) in order,
        each with the server's answer: dicts of the call's fields plus `id` (the returned id)
        or `error` (an error name)."""
        result = []
        for m in self.messages:
            if m["kind"] == "call" and m["member"] == "Notify" \
                    and m["interface"] == "org.freedesktop.Notifications" \
                    and (destination is None or m["destination"] == destination):
                app, replaces, icon, summary, body, actions, hints, timeout = m["args"]
                if hints.get("sender-pid", {}).get("v") != pid:
                    continue
                reply = self.reply_to(m)
                result.append({"at": m.get("at"), "sender": m["sender"], "app": app, "replaces": replaces, "summary": summary, "body": body,
                               "actions": actions, "hints": {k: v["v"] for k, v in hints.items()},
                               "hint_types": {k: v["t"] for k, v in hints.items()}, "timeout": timeout,
                               "id": reply["args"][0] if reply and reply["kind"] == "return" else None,
                               "error": reply["error"] if reply and reply["kind"] == "error" else None})
        return result

    def errors(self, name_part):
        return [m for m in self.messages if m["kind"] == "error" and name_part in (m["error"] or "")]

    def signals(self, member, sender=None):
        return [m for m in self.messages if m["kind"] == "signal" and m["member"] == member
                and (sender is None or m["sender"] == sender)]

    def calls(self, member, interface=None):
        return [m for m in self.messages if m["kind"] == "call" and m["member"] == member
                and (interface is None or m["interface"] == interface)]


if __name__ == "__main__":
    run_monitor(sys.argv[1], sys.argv[2])
