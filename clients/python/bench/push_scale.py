#!/usr/bin/env python3
"""Push fan-out benchmark (docs/benchmarks.md, "Push at scale"): K real liveactivityd daemons,
each on its own private bus with its own state directory, one activity each that follows the
channel `bench` and has its own token. One sender broadcasts on the channel, then sends K
token-targeted updates. Measured: publish → PropertiesChanged latency (median and p99 over all
desktops, seen by a dbus-monitor on each bus), messages per second, and the CPU and RSS of the
broker and of the daemons; for a mosquitto and for a two-node RabbitMQ cluster (daemons spread
over both nodes, sender on node B). Loopback only; every wait is bounded."""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, ".."), os.path.join(HERE, "..", "tests"), os.path.join(HERE, "..", "broker_tests")]

import paho.mqtt.client as mqtt  # noqa: E402

from brokers import RabbitCluster, _proc_stats  # noqa: E402
from desktop import Desktop, Mosquitto, wait_until  # noqa: E402

ACTIVITY_PATH = "/io/github/liveactivities/LiveActivities1/activity/fan"


class Monitor:
    """dbus-monitor on one desktop's bus: the wall-clock times of the activity's PropertiesChanged."""

    def __init__(self, address):
        rule = f"type='signal',member='PropertiesChanged',path='{ACTIVITY_PATH}'"
        self.process = subprocess.Popen(["dbus-monitor", "--address", address, "--profile", rule],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.times = []
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            fields = line.split("\t")
            if fields[0] == "sig" and ACTIVITY_PATH in line:
                with self.lock:
                    self.times.append(float(fields[1]))

    def first_after(self, moment):
        with self.lock:
            return next((t for t in self.times if t > moment), None)

    def stop(self):
        self.process.kill()
        self.process.wait()


class Sender:
    def __init__(self, port):
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION1, client_id=f"bench-sender-{os.getpid()}") \
            if hasattr(mqtt, "CallbackAPIVersion") else mqtt.Client(client_id=f"bench-sender-{os.getpid()}")
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        self.stamp = int(time.time())

    def publish(self, topic, body):
        self.stamp += 1
        payload = '{"aps":{"timestamp":%d,"event":"update","content-state":{"body":"%s"}}}' % (self.stamp, body)
        return self.client.publish(topic, payload, qos=1)

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def run(broker_name, daemon_brokers, sender_port, broker_pids, k, rounds, bin_directory):
    print(f"[{broker_name}] starting {k} daemons", file=sys.stderr)
    desktops = [Desktop(daemon_brokers(i), wait=False, bin_directory=bin_directory) for i in range(k)]
    monitors = []
    try:
        for d in desktops:
            d.wait_ready(timeout=120)
        tokens = [None] * k

        def start(i):
            out = desktops[i].cli("start", "generic", "title=Fan", "--push", "--push-channel", "bench", "--id", "fan").stdout
            tokens[i] = out.split()[1]
        threads = [threading.Thread(target=start, args=(i,)) for i in range(k)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        monitors = [Monitor(d.address) for d in desktops]
        time.sleep(1)  # dbus-monitor has no ready signal: its first line comes only with a match
        sender = Sender(sender_port)
        print(f"[{broker_name}] {k} daemons ready; measuring", file=sys.stderr)
        # Channel subscriptions are confirmed without an event: broadcast until every desktop follows.
        for attempt in range(20):
            t0 = time.time()
            sender.publish("liveactivities/channel/bench", f"warm{attempt}").wait_for_publish(10)
            if wait_until(lambda: all(m.first_after(t0) for m in monitors), 5):
                break
        else:
            raise RuntimeError("not every desktop follows the channel")

        daemon_pids = [d.daemon.pid for d in desktops]
        before = [_proc_stats(p) for p in daemon_pids]
        broker_before = [_proc_stats(p) for p in broker_pids()]
        broadcast, fanout_rates = [], []
        for r in range(rounds):
            t0 = time.time()
            sender.publish("liveactivities/channel/bench", f"b{r}")
            if not wait_until(lambda: all(m.first_after(t0) for m in monitors), 60, 0.01):
                raise RuntimeError(f"broadcast {r} did not reach every desktop in 60 s")
            arrivals = [m.first_after(t0) - t0 for m in monitors]
            broadcast += arrivals
            fanout_rates.append(k / max(arrivals))
        targeted, rates = [], []
        for r in range(rounds):
            sent = []
            for i in range(k):
                sent.append(time.time())
                sender.publish(f"liveactivities/activity/{tokens[i]}", f"t{r}-{i}")
            if not wait_until(lambda: all(m.first_after(s) for m, s in zip(monitors, sent)), 60, 0.01):
                raise RuntimeError(f"targeted round {r} did not reach every desktop in 60 s")
            arrivals = [m.first_after(s) for m, s in zip(monitors, sent)]
            targeted += [a - s for a, s in zip(arrivals, sent)]
            rates.append(k / (max(arrivals) - sent[0]))
        after = [_proc_stats(p) for p in daemon_pids]
        broker_after = [_proc_stats(p) for p in broker_pids()]
        sender.close()
        messages = rounds * 2 * k
        daemon_cpu = sum(a[1] - b[1] for a, b in zip(after, before))
        broker_cpu = sum(a[1] - b[1] for a, b in zip(broker_after, broker_before))
        rss = [a[0] for a in after]
        return {
            "broker": broker_name, "k": k, "rounds": rounds,
            "broadcast": (statistics.median(broadcast), percentile(broadcast, 0.99)),
            "targeted": (statistics.median(targeted), percentile(targeted, 0.99)),
            "fanout_rate": statistics.median(fanout_rates), "targeted_rate": statistics.median(rates),
            "daemon_cpu_per_message": daemon_cpu / messages, "broker_cpu_per_message": broker_cpu / messages,
            "daemon_rss_median": statistics.median(rss), "daemon_rss_total": sum(rss),
            "broker_rss": sum(a[0] for a in broker_after),
        }
    finally:
        for m in monitors:
            m.stop()
        for d in desktops:
            d.stop()


def table(results):
    ms = lambda s: f"{s * 1000:.1f} ms"  # noqa: E731
    lines = ["| measure | " + " | ".join(f"{r['broker']} (K = {r['k']})" for r in results) + " |",
             "| --- |" + " --- |" * len(results)]
    rows = [
        ("broadcast on a channel: publish → PropertiesChanged, median / p99 over all desktops",
         lambda r: f"{ms(r['broadcast'][0])} / {ms(r['broadcast'][1])}"),
        ("broadcast: desktops reached per second (K / the slowest desktop's latency)", lambda r: f"{r['fanout_rate']:.0f}"),
        ("K token-targeted updates sent back to back: publish → PropertiesChanged, median / p99",
         lambda r: f"{ms(r['targeted'][0])} / {ms(r['targeted'][1])}"),
        ("token-targeted: messages applied per second (K / first publish → last PropertiesChanged)",
         lambda r: f"{r['targeted_rate']:.0f}"),
        ("daemons' CPU per delivered message (all daemons)", lambda r: f"{r['daemon_cpu_per_message'] * 1e6:.0f} µs"),
        ("broker's CPU per delivered message (all nodes)", lambda r: f"{r['broker_cpu_per_message'] * 1e6:.1f} µs"),
        ("daemon RSS, median / all K", lambda r: f"{r['daemon_rss_median'] / 1024:.1f} MiB / {r['daemon_rss_total'] / 1024:.0f} MiB"),
        ("broker RSS (all nodes)", lambda r: f"{r['broker_rss'] / 1024:.0f} MiB"),
    ]
    for name, value in rows:
        lines.append(f"| {name} | " + " | ".join(value(r) for r in results) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--desktops", type=int, default=50, help="K, the number of daemons (default 50)")
    parser.add_argument("--rounds", type=int, default=5, help="broadcasts, and rounds of K targeted updates (default 5)")
    parser.add_argument("--brokers", default="mosquitto,rabbitmq", help="mosquitto, rabbitmq or both (default)")
    parser.add_argument("--bin", required=True, help="the directory of liveactivityd and liveactivity")
    args = parser.parse_args()
    results = []
    for name in args.brokers.split(","):
        directory = tempfile.mkdtemp(prefix=f"liveactivities-bench-{name}-")
        if name == "mosquitto":
            broker = Mosquitto(directory)
            try:
                results.append(run("mosquitto", lambda i: broker.url, broker.port, lambda: [broker.process.pid],
                                   args.desktops, args.rounds, args.bin))
            finally:
                broker.stop()
        elif name == "rabbitmq":
            cluster = RabbitCluster(directory)
            try:
                a, b = cluster.url("a"), cluster.url("b")
                results.append(run("RabbitMQ 2-node cluster", lambda i: f"{a}, {b}" if i % 2 == 0 else f"{b}, {a}",
                                   cluster.mqtt_ports["b"], lambda: [p.pid for p in cluster.processes.values()],
                                   args.desktops, args.rounds, args.bin))
            finally:
                cluster.stop()
        else:
            parser.error(f"unknown broker {name}")
    print(table(results))
    load = os.getloadavg()
    print(f"\n{os.cpu_count()} cores; load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (1 / 5 / 15 min)")


if __name__ == "__main__":
    main()
