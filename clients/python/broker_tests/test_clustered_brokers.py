"""The daemon and the sender library against clustered and other MQTT brokers (the slow
tier: scripts/test-brokers). A RabbitMQ cluster with the MQTT plugin: the daemon is on node A,
the sender on node B; node A is stopped, the daemon moves to B under the same client id and
every message acknowledged meanwhile arrives once, in order. NATS with JetStream: the whole
start, update, end cycle with receipts."""

import time

import pytest

from brokers import Nats, RabbitCluster
from desktop import Desktop, wait_until
from liveactivities_push import EndPayload, PushClient, StartPayload, Unregistered, UpdatePayload


@pytest.fixture
def cluster(tmp_path):
    cluster = RabbitCluster(str(tmp_path / "rabbit"))
    yield cluster
    cluster.stop()


def test_rabbitmq_cluster_node_a_stops_and_nothing_acknowledged_is_lost(cluster):
    desktop = Desktop(f"{cluster.url('a')}, {cluster.url('b')}")
    try:
        assert f"push: connected to 127.0.0.1:{cluster.mqtt_ports['a']}" in desktop.daemon_log()
        with PushClient("127.0.0.1", cluster.mqtt_ports["b"], timeout=30) as push:
            started = push.start(desktop.push_to_start_token(), StartPayload("generic", {"title": "Delivery"}, input_push_token=True))
            assert started.applied and started.activity and started.push_token
            assert push.send(started.push_token, UpdatePayload({"body": "Out for delivery"})).applied
            token = desktop.start_with_token("build", "title=Build 1234", "progress=0.1")
            now = int(time.time())
            assert push.send(token, UpdatePayload({"body": "compiling"}, timestamp=now)).applied

            cluster.stop_node("a")
            # Published on B while the daemon's node is gone: queued in its (mirrored) session.
            results = push.send_batch([(token, UpdatePayload({"body": f"step {i}", "progress": i / 10}, timestamp=now + 1 + i))
                                       for i in range(1, 6)], timeout=60)
            assert [(r.applied, r.reason) for r in results] == [(True, "")] * 5, "each applied, none stale: in order"
            assert not [r for r in push.unmatched if r.reason == "Duplicate"], "each arrived once"
            assert desktop.get("build")["state"]["body"] == "step 5"
            assert f"push: connected to 127.0.0.1:{cluster.mqtt_ports['b']}" in desktop.daemon_log()
            assert desktop.push_status() == "connected"

            ended = push.send(token, EndPayload({"body": "Passed"}, timestamp=now + 10))
            assert ended.applied and desktop.get("build")["status"] == "ended"
            assert wait_until(lambda: token in push.unregistered, 30), "the sender learns the token is dead"
            with pytest.raises(Unregistered):
                push.send(token, UpdatePayload({"body": "late"}))

            # The user ends an activity on the desktop: the sender on node B learns its token is dead.
            focus = desktop.start_with_token("focus", "title=Focus")
            assert push.send(focus, UpdatePayload({"body": "25 min"})).applied
            desktop.cli("end", "focus")
            assert wait_until(lambda: focus in push.unregistered, 30)
    finally:
        desktop.stop()


def test_nats_with_jetstream(tmp_path):
    nats = Nats(str(tmp_path))
    desktop = Desktop(nats.url)
    try:
        with PushClient("127.0.0.1", nats.mqtt_port, timeout=20) as push:
            started = push.start(desktop.push_to_start_token(), StartPayload("generic", {"title": "Delivery"}))
            assert started.applied
            token = desktop.start_with_token("build", "title=Build")
            now = int(time.time())
            assert push.send(token, UpdatePayload({"body": "linking"}, timestamp=now)).applied
            assert desktop.get("build")["state"]["body"] == "linking"
            desktop.cli("start", "generic", "title=Match", "--push-channel", "match_7", "--id", "m1")
            for attempt in range(20):
                got = push.send_channel("match_7", UpdatePayload({"body": "1 : 0"}, timestamp=now + attempt), followers=1, timeout=2)
                if got:
                    break
            assert got[0].applied and got[0].activity == "m1"
            assert push.send(token, EndPayload({"body": "done"}, timestamp=now + 30)).applied
            assert wait_until(lambda: token in push.unregistered, 20)
    finally:
        desktop.stop()
        nats.stop()


def rabbitmq_acl_lines():
    """The `rabbitmqctl` lines of docs/push.md's RabbitMQ ACL, as written."""
    import os
    import re
    import shlex
    docs = open(os.path.join(os.path.dirname(__file__), "..", "..", "..", "docs", "push.md")).read()
    block = re.search(r"For RabbitMQ, MQTT topics are routing keys.*?```\n(.*?)```", docs, re.S).group(1)
    return [shlex.split(line) for line in block.splitlines() if line.startswith("rabbitmqctl ")]


def test_rabbitmq_acl_of_docs_push_md(tmp_path):
    import subprocess
    node = RabbitCluster(str(tmp_path / "rabbit"), names=("a",))
    desktop = None
    try:
        node.ctl("a", "add_user", "desk-anna", "desk-secret")
        node.ctl("a", "add_user", "ci-server", "server-secret")
        lines = rabbitmq_acl_lines()
        assert len(lines) == 4, lines
        for line in lines:
            node.ctl("a", *line[1:])
        password = tmp_path / "desk-password"
        password.write_text("desk-secret\n")
        desktop = Desktop(node.url("a"), extra_config=f"push-username = desk-anna\npush-password-file = {password}\n"
                                                      "push-topic-prefix = liveactivities/anna\n")
        token = desktop.start_with_token("build", "title=Build")
        with PushClient("127.0.0.1", node.mqtt_ports["a"], prefix="liveactivities/anna", username="ci-server",
                        password="server-secret") as push:
            result = push.send(token, UpdatePayload({"body": "under the ACL"}))
            assert result.applied and desktop.get("build")["state"]["body"] == "under the ACL"
        # The desktop may not read another desktop's prefix, nor publish anything but its receipts.
        port = str(node.mqtt_ports["a"])
        anna = ["-h", "127.0.0.1", "-p", port, "-u", "desk-anna", "-P", "desk-secret", "-q", "1", "-d"]
        other = subprocess.run(["mosquitto_sub", *anna, "-t", "liveactivities/bob/#", "-C", "1", "-W", "5"],
                               capture_output=True, text=True, timeout=60)
        # RabbitMQ 3.10 answers a denied SUBSCRIBE by closing the connection: no SUBACK, mosquitto_sub reconnects.
        assert "received SUBACK" not in other.stdout and other.stdout.count("sending CONNECT") >= 2, other
        forged = subprocess.run(["mosquitto_pub", *anna, "-t", "liveactivities/anna/activity/" + token, "-m", "{}"],
                                capture_output=True, text=True, timeout=60)
        assert "received PUBACK" not in forged.stdout and forged.returncode != 0, forged
    finally:
        if desktop is not None:
            desktop.stop()
        node.stop()
