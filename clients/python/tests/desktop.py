"""A real desktop for the tests: a private dbus-daemon, the built liveactivityd on it with its
own home, state and config, and the `liveactivity` CLI to start activities and read them.
Never the user's bus or home. The binaries are found in LIVEACTIVITIES_BIN_DIR, else in the
checkout's `swift build --show-bin-path`."""

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time

CHECKOUT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def bin_dir() -> str:
    found = os.environ.get("LIVEACTIVITIES_BIN_DIR")
    if found:
        return found
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    return subprocess.run([swift, "build", "--show-bin-path"], cwd=CHECKOUT, check=True, capture_output=True,
                          text=True).stdout.strip()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(condition, timeout=20.0, step=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    return condition()


BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path={socket}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>
<allow own="*"/><allow user="*"/></policy></busconfig>
"""


class Mosquitto:
    """A mosquitto of the test's own on a free loopback port."""

    def __init__(self, directory: str):
        self.port = free_port()
        config = os.path.join(directory, "mosquitto.conf")
        user = "user root\n" if os.geteuid() == 0 else ""
        with open(config, "w") as f:
            f.write(f"{user}listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        executable = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        self.process = subprocess.Popen([executable, "-c", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not wait_until(self._accepts, 10):
            self.stop()
            raise RuntimeError("mosquitto did not start")

    def _accepts(self):
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", self.port)) == 0

    @property
    def url(self):
        return f"mqtt://127.0.0.1:{self.port}"

    def stop(self):
        self.process.kill()
        self.process.wait()


class Desktop:
    """liveactivityd on a private bus, configured with `push_broker`."""

    def __init__(self, push_broker: str, extra_config: str = "", wait: bool = True, bin_directory: str = None):
        self.directory = tempfile.mkdtemp(prefix="liveactivities-pytest-")
        self.bin = bin_directory or bin_dir()
        socket_path = os.path.join(self.directory, "bus")
        bus_conf = os.path.join(self.directory, "bus.conf")
        with open(bus_conf, "w") as f:
            f.write(BUS_CONFIG.format(socket=socket_path))
        self.bus = subprocess.Popen(["dbus-daemon", f"--config-file={bus_conf}", "--nofork", "--print-address=1"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        address = self.bus.stdout.readline().strip()
        self.address = address
        home = os.path.join(self.directory, "home")
        self.env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address, HOME=home,
                        XDG_STATE_HOME=os.path.join(home, "state"), XDG_CONFIG_HOME=os.path.join(home, "config"),
                        XDG_DATA_HOME=os.path.join(home, "data"), XDG_RUNTIME_DIR=os.path.join(home, "run"))
        self.env.pop("DISPLAY", None)
        self.env.setdefault("LIVEACTIVITIES_KINDS_DIR", os.path.join(CHECKOUT, "data", "kinds"))
        config_dir = os.path.join(home, "config", "liveactivities")
        os.makedirs(config_dir)
        os.makedirs(os.path.join(home, "run"), mode=0o700)
        with open(os.path.join(config_dir, "liveactivityd.conf"), "w") as f:
            f.write(f"push-broker = {push_broker}\n{extra_config}")
        self.log = open(os.path.join(self.directory, "daemon.log"), "w")
        self.daemon = subprocess.Popen([os.path.join(self.bin, "liveactivityd")], env=self.env, stdout=self.log,
                                       stderr=subprocess.STDOUT)
        if wait:
            self.wait_ready()

    def wait_ready(self, timeout=20):
        """Waits until the daemon answers on its bus and its push connection is up."""
        if not wait_until(lambda: self.cli("status", check=False).returncode == 0, timeout):
            self.stop()
            raise RuntimeError("liveactivityd did not start: " + self.daemon_log())
        if not wait_until(lambda: "connected" == self.push_status(), timeout):
            raise RuntimeError("push did not connect: " + self.push_status() + "\n" + self.daemon_log())

    def cli(self, *args, check=True):
        return subprocess.run([os.path.join(self.bin, "liveactivity"), *args], env=self.env, capture_output=True,
                              text=True, check=check, timeout=30)

    def push_status(self) -> str:
        out = subprocess.run(["gdbus", "call", "--session", "--dest", "io.github.liveactivities.LiveActivities1",
                              "--object-path", "/io/github/liveactivities/LiveActivities1",
                              "--method", "org.freedesktop.DBus.Properties.Get",
                              "io.github.liveactivities.LiveActivities1", "PushStatus"],
                             env=self.env, capture_output=True, text=True).stdout
        return out.split("'")[1] if "'" in out else out.strip()

    def start_with_token(self, activity_id: str, *state) -> str:
        out = self.cli("start", "generic", *state, "--push", "--id", activity_id).stdout.split()
        return out[1]

    def push_to_start_token(self, kind: str = "generic") -> str:
        return self.cli("push-to-start-token", kind).stdout.strip()

    def get(self, activity_id: str) -> dict:
        return json.loads(self.cli("get", activity_id, "--json").stdout)

    def daemon_log(self) -> str:
        with open(os.path.join(self.directory, "daemon.log")) as f:
            return f.read()

    def stop(self):
        for process in (self.daemon, self.bus):
            process.kill()
            process.wait()
        self.log.close()
        shutil.rmtree(self.directory, ignore_errors=True)
