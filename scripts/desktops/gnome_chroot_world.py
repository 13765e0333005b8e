"""A World whose desktop runs inside a cached Debian chroot (scripts/desktops/chroot), for the
GNOME Shell 48 (trixie) and 50 (forky) rows of the desktop matrix.

The world's directory is a fresh `mktemp` directory under the chroot's /tmp, so the same files
have two names: the outer one (ROOT/tmp/la-…), used by everything on the host, and the inner
one (/tmp/la-…), used inside. The buses run inside the chroot (its own dbus-daemon) with their
sockets in the world's directory; the daemon and CLI built on the host reach them through the
outer socket path (same uid: EXTERNAL auth works). `spawn` runs a program inside the chroot,
unless it is named by its outer path (a host-built binary installed into the world), which runs
on the host. Environment values and arguments naming the world are rewritten to the inner name
for processes inside.

Shared with other engineers' rows on the same chroot: proc and /dev are mounted only when not
mounted yet and never unmounted here; nothing outside the world's own directory is removed.
"""
import os
import re
import subprocess
import tempfile
import time

from world import BUS_CONFIG, ServerFailed, World

HERE = os.path.dirname(os.path.abspath(__file__))


def make_chroot(suite, timeout=3600):
    """The chroot's directory for `suite` (trixie | forky): made once, then reused (cache)."""
    begun = time.time()
    result = subprocess.run([os.path.join(HERE, "chroot"), suite], capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        raise ServerFailed(f"scripts/desktops/chroot {suite} failed:\n{result.stderr[-3000:]}")
    root = result.stdout.strip().splitlines()[-1]
    print(f"  chroot {suite}: {root} ({time.time() - begun:.0f} s)", flush=True)
    return root


def is_mounted(path):
    real = os.path.realpath(path)
    with open("/proc/self/mounts") as mounts:
        return any(line.split()[1] == real for line in mounts)


def ensure_mounts(root):
    """proc and /dev inside the chroot, mounted only when missing (another row may use them)."""
    if not is_mounted(os.path.join(root, "proc")):
        subprocess.run(["mount", "-t", "proc", "proc", os.path.join(root, "proc")], check=True)
    if not is_mounted(os.path.join(root, "dev")):
        subprocess.run(["mount", "--bind", "/dev", os.path.join(root, "dev")], check=True)


class ChrootWorld(World):
    """A World living in `root`/tmp; processes run inside the chroot unless named by outer path."""

    def __init__(self, name, root, keep=False):
        self.root = os.path.realpath(root)
        ensure_mounts(self.root)
        self.name = name
        self.keep = keep
        self.dir = tempfile.mkdtemp(prefix=f"la-desktops-{name}-", dir=os.path.join(self.root, "tmp"))
        os.chmod(self.dir, 0o755)
        self.home = self.path("home")
        self.runtime = self.path("run")
        os.chmod(self.runtime, 0o700)
        self.processes = []
        self.session_address = None
        self.system_address = None
        self.display = None

    def inner(self, path):
        """The name inside the chroot of an outer path under the root."""
        return path[len(self.root):] if path.startswith(self.root + "/") else path

    def inner_text(self, text):
        return text.replace(self.root + "/", "/")

    def spawn(self, name, argv, env=None, preexec=None, cwd=None):
        if argv[0].startswith(self.root + "/"):  # a host-built program installed into the world
            return super().spawn(name, argv, env=env, preexec=preexec, cwd=cwd)
        inside = {k: self.inner_text(v) for k, v in (env or self.env()).items()}
        inside["PATH"] = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
        command = ["chroot", self.root, "env", "-i", *[f"{k}={v}" for k, v in inside.items()],
                   *[self.inner_text(a) for a in argv]]
        return super().spawn(name, command, env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")}, preexec=preexec,
                             cwd=cwd)

    def start_bus(self, kind="session"):
        """A dbus-daemon of the chroot's, listening in the world's directory; the address kept is the outer one."""
        socket = self.file("bus", f"{kind}.socket")
        config = self.file("bus", f"{kind}.conf")
        with open(config, "w") as f:
            f.write(BUS_CONFIG.format(kind=kind, socket=self.inner(socket)))
        process = subprocess.Popen(["chroot", self.root, "dbus-daemon", f"--config-file={self.inner(config)}",
                                    "--nofork", "--print-address=1"], stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, start_new_session=True)
        address = process.stdout.readline().decode().strip()
        if not address:
            raise ServerFailed(f"dbus-daemon ({kind}) did not start inside {self.root}")
        self.processes.append((f"dbus-{kind}", process, None))
        outer = re.sub(r"unix:path=([^,;]+)", lambda m: f"unix:path={self.root}{m.group(1)}", address)
        if kind == "session":
            self.session_address = outer
        else:
            self.system_address = outer
        return outer
