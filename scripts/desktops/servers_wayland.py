from server_base import Server

class Mako(Server):
    name = "mako"

class GnomeShell(Server):
    name = "gnome-shell"
