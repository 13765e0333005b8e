"""A private world for one notification server: buses, directories, processes, logs.

Everything lives under one temporary directory; every process started here is ended here,
by its pid. Nothing touches the user's session bus, home or display.
"""
import os
import shutil
import signal
import subprocess
import tempfile
import time

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>{kind}</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
    <allow user="*"/>
  </policy>
</busconfig>
"""


class ServerFailed(Exception):
    """A server (or a piece of the world) did not start: the message carries its log."""


class World:
    def __init__(self, name, keep=False):
        self.name = name
        self.keep = keep
        self.dir = tempfile.mkdtemp(prefix=f"la-desktops-{name}-")
        os.chmod(self.dir, 0o755)
        self.home = self.path("home")
        self.runtime = self.path("run")
        os.chmod(self.runtime, 0o700)
        self.processes = []  # (name, Popen, log path), in start order
        self.session_address = None
        self.system_address = None
        self.display = None

    def path(self, *parts):
        """A directory under the world (created)."""
        full = os.path.join(self.dir, *parts)
        os.makedirs(full, exist_ok=True)
        return full

    def file(self, *parts):
        """A file path under the world (its directory created)."""
        full = os.path.join(self.dir, *parts)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        return full

    def env(self, **extra):
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "HOME": self.home,
            "XDG_RUNTIME_DIR": self.runtime,
            "XDG_CONFIG_HOME": self.path("home", ".config"),
            "XDG_DATA_HOME": self.path("home", ".local", "share"),
            "XDG_CACHE_HOME": self.path("home", ".cache"),
            "XDG_STATE_HOME": self.path("home", ".local", "state"),
            "NO_AT_BRIDGE": "1",
        }
        if self.session_address:
            env["DBUS_SESSION_BUS_ADDRESS"] = self.session_address
        if self.system_address:
            env["DBUS_SYSTEM_BUS_ADDRESS"] = self.system_address
        if self.display:
            env["DISPLAY"] = self.display
        env.update({k: v for k, v in extra.items() if v is not None})
        return env

    def spawn(self, name, argv, env=None, preexec=None, cwd=None):
        """Starts a process whose output goes to its own log file."""
        log = self.file("logs", f"{name}.log")
        out = open(log, "ab")
        try:
            process = subprocess.Popen(argv, env=env or self.env(), stdout=out, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, preexec_fn=preexec, cwd=cwd,
                                       start_new_session=True)
        except OSError as error:
            raise ServerFailed(f"{name}: cannot run {argv[0]}: {error}")
        finally:
            out.close()
        self.processes.append((name, process, log))
        return process

    def log(self, name, tail=60):
        path = os.path.join(self.dir, "logs", f"{name}.log")
        try:
            with open(path, errors="replace") as f:
                lines = f.read().splitlines()
        except OSError:
            return "(no log)"
        return "\n".join(lines[-tail:])

    def start_bus(self, kind="session"):
        socket = self.file("bus", f"{kind}.socket")
        config = self.file("bus", f"{kind}.conf")
        with open(config, "w") as f:
            f.write(BUS_CONFIG.format(kind=kind, socket=socket))
        process = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
        address = process.stdout.readline().decode().strip()
        if not address:
            raise ServerFailed(f"dbus-daemon ({kind}) did not start")
        self.processes.append((f"dbus-{kind}", process, None))
        if kind == "session":
            self.session_address = address
        else:
            self.system_address = address
        return address

    def start_xvfb(self, size="1280x800"):
        read_fd, write_fd = os.pipe()
        log = self.file("logs", "Xvfb.log")
        with open(log, "ab") as out:
            process = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{size}x24",
                                        "-nolisten", "tcp"], pass_fds=(write_fd,), stdout=out,
                                       stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        os.close(write_fd)
        number = b""
        deadline = time.time() + 15
        while time.time() < deadline and not number.endswith(b"\n"):
            chunk = os.read(read_fd, 16)
            if not chunk:
                break
            number += chunk
        os.close(read_fd)
        if not number.strip():
            raise ServerFailed("Xvfb did not start:\n" + self.log("Xvfb"))
        self.processes.append(("Xvfb", process, log))
        self.display = ":" + number.decode().strip()
        return self.display

    def wait_for_name(self, name, timeout=20, process=None, process_name=None):
        """Waits until `name` has an owner on the session bus; fails with the log when not."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.has_owner(name):
                return
            if process is not None and process.poll() is not None:
                break
            time.sleep(0.1)
        log = self.log(process_name) if process_name else ""
        state = "exited with status %s" % process.returncode if process is not None and process.poll() is not None \
            else "still running"
        raise ServerFailed(f"{name} did not appear on the bus within {timeout} s ({process_name or ''} {state})\n{log}")

    def has_owner(self, name, address=None):
        result = subprocess.run(["dbus-send", f"--bus={address or self.session_address}", "--print-reply",
                                 "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                 "org.freedesktop.DBus.NameHasOwner", f"string:{name}"],
                                capture_output=True, text=True, timeout=10)
        return "boolean true" in result.stdout

    def stop(self):
        """Ends every process started here, newest first, by pid (TERM, then KILL)."""
        for name, process, _ in reversed(self.processes):
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                except (ProcessLookupError, PermissionError):
                    process.terminate()
        for name, process, _ in reversed(self.processes):
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    process.kill()
                process.wait(timeout=5)
        self.processes = []
        if not self.keep:
            shutil.rmtree(self.dir, ignore_errors=True)
