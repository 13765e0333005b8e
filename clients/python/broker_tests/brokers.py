"""Clustered and other MQTT brokers on loopback for the broker tier: a RabbitMQ cluster (its
nodes on one machine, each with its own node name, ports and data directory, one private epmd)
with the MQTT plugin, and a NATS server with JetStream and MQTT. Everything lives in a temporary
directory and is stopped by the test that started it."""

import os
import shutil
import subprocess
import time

from desktop import free_port, wait_until

RABBIT_BIN = "/usr/lib/rabbitmq/bin"


class RabbitCluster:
    """`names` nodes clustered with the first; each node's MQTT port is in `mqtt_ports`.
    Queues of persistent MQTT sessions are mirrored on every node (policy `ha-mode: all`): a
    classic queue lives on one node and would be unreachable while that node is down."""

    def __init__(self, directory: str, names=("a", "b")):
        self.directory = directory
        self.names = list(names)
        os.makedirs(directory, exist_ok=True)
        self.epmd_port = free_port()
        with open(os.path.join(directory, ".erlang.cookie"), "w") as f:
            f.write("liveactivities-broker-tests")
        os.chmod(os.path.join(directory, ".erlang.cookie"), 0o400)
        with open(os.path.join(directory, "enabled_plugins"), "w") as f:
            f.write("[rabbitmq_mqtt].\n")
        self.mqtt_ports = {name: free_port() for name in self.names}
        self.amqp_ports = {name: free_port() for name in self.names}
        self.dist_ports = {name: free_port() for name in self.names}
        self.processes = {}
        try:
            self._form()
        except BaseException:
            self.stop()
            raise

    def _form(self):
        for name in self.names:
            self.start(name)
        for name in self.names:
            self.await_node(name)
        for name in self.names[1:]:
            self.ctl(name, "stop_app")
            self.ctl(name, "join_cluster", self.node(self.names[0]))
            self.ctl(name, "start_app", timeout=120)
        self.ctl(self.names[0], "set_policy", "mqtt-sessions-everywhere", "^mqtt-subscription-",
                 '{"ha-mode":"all","ha-sync-mode":"automatic"}', "--apply-to", "queues")
        for name in self.names:
            if not wait_until(lambda: _accepts(self.mqtt_ports[name]), 60):
                raise RuntimeError(f"node {name}: MQTT does not listen\n" + self.log(name))

    def await_node(self, name, timeout=120):
        """Waits until the node has registered with epmd and booted (await_startup fails at once before that)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.ctl(name, "await_startup", timeout=max(5, int(deadline - time.monotonic())))
                return
            except RuntimeError:
                if time.monotonic() >= deadline or self.processes[name].poll() is not None:
                    raise
                time.sleep(0.5)

    def node(self, name):
        return f"la-{name}@localhost"

    def env(self, name):
        base = os.path.join(self.directory, name)
        return dict(os.environ, HOME=self.directory, ERL_EPMD_PORT=str(self.epmd_port),
                    RABBITMQ_NODENAME=self.node(name), RABBITMQ_NODE_PORT=str(self.amqp_ports[name]),
                    RABBITMQ_DIST_PORT=str(self.dist_ports[name]), RABBITMQ_MNESIA_BASE=os.path.join(base, "mnesia"),
                    RABBITMQ_LOG_BASE=os.path.join(base, "log"), RABBITMQ_PID_FILE=os.path.join(base, "pid"),
                    RABBITMQ_CONFIG_FILE=os.path.join(base, "rabbitmq"),
                    RABBITMQ_ADVANCED_CONFIG_FILE=os.path.join(base, "advanced.config"),
                    RABBITMQ_CONF_ENV_FILE=os.path.join(base, "rabbitmq-env.conf"),
                    RABBITMQ_ENABLED_PLUGINS_FILE=os.path.join(self.directory, "enabled_plugins"))

    def start(self, name):
        base = os.path.join(self.directory, name)
        os.makedirs(base, exist_ok=True)
        with open(os.path.join(base, "rabbitmq.conf"), "w") as f:
            f.write(f"listeners.tcp.default = 127.0.0.1:{self.amqp_ports[name]}\n"
                    f"mqtt.listeners.tcp.default = 127.0.0.1:{self.mqtt_ports[name]}\n"
                    "mqtt.allow_anonymous = true\nloopback_users = none\n")
        out = open(os.path.join(base, "server.out"), "a")
        self.processes[name] = subprocess.Popen([os.path.join(RABBIT_BIN, "rabbitmq-server")], env=self.env(name),
                                                stdout=out, stderr=subprocess.STDOUT)

    def ctl(self, name, *args, timeout=60):
        command = [os.path.join(RABBIT_BIN, "rabbitmqctl"), "-n", self.node(name), *args]
        if args and args[0] == "await_startup":
            command += ["--timeout", str(timeout)]
        result = subprocess.run(command, env=self.env(name), capture_output=True, text=True, timeout=timeout + 30)
        if result.returncode != 0:
            raise RuntimeError(f"rabbitmqctl {' '.join(args)} on {name}: {result.stdout}{result.stderr}\n{self.log(name)}")
        return result.stdout

    def stop_node(self, name):
        """Stops one node the orderly way (`rabbitmqctl stop`), as an operator taking it down would."""
        self.ctl(name, "stop", timeout=60)
        process = self.processes.pop(name, None)
        if process is not None:
            process.wait(timeout=60)

    def url(self, name):
        return f"mqtt://127.0.0.1:{self.mqtt_ports[name]}"

    def log(self, name):
        path = os.path.join(self.directory, name, "server.out")
        try:
            with open(path) as f:
                return f.read()[-3000:]
        except OSError:
            return ""

    def rss_and_cpu(self):
        """Per running node: (resident KiB, CPU seconds) from /proc, for the benchmark."""
        return {name: _proc_stats(p.pid) for name, p in self.processes.items()}

    def stop(self):
        for name in list(self.processes):
            process = self.processes.pop(name)
            # rabbitmq-server is a script whose beam runs as a child; stop the node, then the script.
            try:
                subprocess.run([os.path.join(RABBIT_BIN, "rabbitmqctl"), "-n", self.node(name), "stop"], env=self.env(name),
                               capture_output=True, timeout=60)
            except subprocess.TimeoutExpired:
                pass
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        subprocess.run(["epmd", "-port", str(self.epmd_port), "-kill"], capture_output=True)


class Nats:
    """nats-server with JetStream (MQTT needs it, and a server_name) and an MQTT listener."""

    def __init__(self, directory: str):
        self.port = free_port()
        self.mqtt_port = free_port()
        config = os.path.join(directory, "nats.conf")
        with open(config, "w") as f:
            f.write(f'server_name: liveactivities-test\nlisten: 127.0.0.1:{self.port}\n'
                    f'jetstream {{ store_dir: "{os.path.join(directory, "jetstream")}" }}\n'
                    f'mqtt {{ listen: 127.0.0.1:{self.mqtt_port} }}\n')
        self.out = open(os.path.join(directory, "nats.out"), "w")
        executable = shutil.which("nats-server") or "/usr/sbin/nats-server"
        self.process = subprocess.Popen([executable, "-c", config], stdout=self.out, stderr=subprocess.STDOUT)
        if not wait_until(lambda: _accepts(self.mqtt_port), 30):
            self.stop()
            raise RuntimeError("nats-server did not start")

    @property
    def url(self):
        return f"mqtt://127.0.0.1:{self.mqtt_port}"

    def stop(self):
        self.process.kill()
        self.process.wait()
        self.out.close()


def _accepts(port):
    import socket
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def _proc_stats(pid):
    """(RSS KiB, CPU seconds) of `pid` and all its descendants."""
    ticks = os.sysconf("SC_CLK_TCK")
    total_rss, total_cpu = 0, 0.0
    for child in [pid] + _descendants(pid):
        try:
            with open(f"/proc/{child}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total_cpu += (int(fields[11]) + int(fields[12])) / ticks
            with open(f"/proc/{child}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total_rss += int(line.split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return total_rss, total_cpu


def _descendants(pid):
    out = []
    try:
        children = open(f"/proc/{pid}/task/{pid}/children").read().split()
    except OSError:
        return out
    for child in children:
        out.append(int(child))
        out += _descendants(int(child))
    return out
