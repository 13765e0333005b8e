from server_base import Server

class Plasma(Server):
    name = "plasma"
