"""A desktop session inside a cached Debian chroot (scripts/desktops/chroot), for the rows that
check the desktops people run now (Debian 13 and testing) on this Debian 12 machine.

The session bus and the X server run inside the chroot, in a private directory under its /tmp;
our daemon, the bus monitor and every check run outside, on the host, through the bus socket
(its host path leads into the chroot) and the X server's abstract socket. Every process is
started through the World, so the World ends it by its pid. The chroot is shared (another
engineer's rows use it at the same time): its proc and dev are mounted only when they are not
already, and never unmounted here; only the private directory is removed.
"""
import os
import shutil
import subprocess
import tempfile

from world import BUS_CONFIG, ServerFailed

HERE = os.path.dirname(os.path.abspath(__file__))


def make_chroot(suite):
    """The chroot of `suite` (trixie | forky), made and cached by scripts/desktops/chroot."""
    result = subprocess.run([os.path.join(HERE, "chroot"), suite], capture_output=True, text=True, timeout=3600)
    if result.returncode != 0:
        raise ServerFailed(f"scripts/desktops/chroot {suite} failed:\n{result.stderr[-2000:]}")
    return result.stdout.strip().splitlines()[-1]


def mounted(path):
    with open("/proc/mounts") as f:
        return any(line.split()[1] == path for line in f)


class ChrootSession:
    """A private directory, session bus and X display inside `root`, with processes started there."""

    def __init__(self, root, world):
        self.root = root
        self.world = world
        for point, args in (("proc", ["-t", "proc", "proc"]), ("dev", ["--bind", "/dev"])):
            target = os.path.join(root, point)
            if not mounted(target):
                subprocess.run(["mount", *args, target], check=True, timeout=30)
        self.host_dir = tempfile.mkdtemp(prefix="la-plasma-", dir=os.path.join(root, "tmp"))
        os.chmod(self.host_dir, 0o755)
        self.dir = "/tmp/" + os.path.basename(self.host_dir)  # the same directory, seen from inside
        self.home = self.inside("home")
        self.runtime = self.inside("run")
        os.chmod(self.host(self.runtime), 0o700)
        self.address = None
        self.display = None

    def inside(self, *parts):
        """A directory under the private directory (created), as a path inside the chroot."""
        path = os.path.join(self.dir, *parts)
        os.makedirs(self.host(path), exist_ok=True)
        return path

    def host(self, inside_path):
        """The host's path of a path inside the chroot."""
        return os.path.join(self.root, inside_path.lstrip("/"))

    def env(self, **extra):
        """The environment of a desktop process inside the chroot."""
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": self.home,
               "XDG_RUNTIME_DIR": self.runtime, "XDG_CONFIG_HOME": self.inside("home", ".config"),
               "XDG_DATA_HOME": self.inside("home", ".local", "share"), "XDG_CACHE_HOME": self.inside("home", ".cache"),
               "XDG_STATE_HOME": self.inside("home", ".local", "state"), "NO_AT_BRIDGE": "1"}
        if self.address:
            env["DBUS_SESSION_BUS_ADDRESS"] = self.address
        if self.display:
            env["DISPLAY"] = self.display
        env.update(extra)
        return env

    def spawn(self, name, argv, env):
        """Starts `argv` inside the chroot (chroot and env exec it: the World holds its real pid)."""
        return self.world.spawn(name, ["chroot", self.root, "env", "-i", *[f"{k}={v}" for k, v in env.items()], *argv],
                                env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})

    def run(self, argv, env=None, timeout=30):
        """Runs a short command inside the chroot: its output."""
        return subprocess.run(["chroot", self.root, "env", "-i", *[f"{k}={v}" for k, v in (env or self.env()).items()],
                               *argv], capture_output=True, text=True, timeout=timeout)

    def start_bus(self):
        """A session bus inside; the World's session address becomes its host path (for the
        daemon, the monitor and the checks)."""
        socket = os.path.join(self.dir, "bus")
        config = os.path.join(self.dir, "session.conf")
        with open(self.host(config), "w") as f:
            f.write(BUS_CONFIG.format(kind="session", socket=socket))
        bus = self.spawn("dbus-session", ["dbus-daemon", f"--config-file={config}", "--nofork"], self.env())
        self.address = f"unix:path={socket}"
        self.world.session_address = f"unix:path={self.host(socket)}"
        self.world.wait_for_name("org.freedesktop.DBus", timeout=15, process=bus, process_name="dbus-session")

    def start_xvfb(self, size):
        """Xvfb inside, on a display number free both inside and on the host (X's abstract
        sockets are shared between the two, so host tools reach it by the number)."""
        with open("/proc/net/unix") as f:
            taken = f.read()
        number = next(n for n in range(70, 200) if f"/tmp/.X11-unix/X{n}\n" not in taken
                      and not os.path.exists(f"/tmp/.X{n}-lock") and not os.path.exists(self.host(f"/tmp/.X{n}-lock")))
        self.display = f":{number}"
        xvfb = self.spawn("Xvfb", ["Xvfb", self.display, "-screen", "0", f"{size}x24", "-nolisten", "tcp"], self.env())
        self.world.display = self.display
        for _ in range(100):
            if subprocess.run(["xdpyinfo"], env=self.world.env(), capture_output=True, timeout=10).returncode == 0:
                return
            if xvfb.poll() is not None:
                break
            import time
            time.sleep(0.1)
        raise ServerFailed("Xvfb in the chroot did not start:\n" + self.world.log("Xvfb"))

    def remove(self):
        """Removes the private directory (after the World ended the processes using it)."""
        if not self.world.keep:
            shutil.rmtree(self.host_dir, ignore_errors=True)
